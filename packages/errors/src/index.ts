export { AppError, statusOf } from "./app-error";
export type { AppErrorCode, FieldIssue, ErrorBody } from "./app-error";

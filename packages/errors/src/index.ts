export { AppError, statusOf } from "./app-error";
export type { AppErrorCode, ErrorParams, FieldIssue, ErrorBody } from "./app-error";
export { unavailableDependency, isDependencyUnavailable, STORAGE_UNAVAILABLE_CODE } from "./dependency-unavailable";
export type { Dependency } from "./dependency-unavailable";

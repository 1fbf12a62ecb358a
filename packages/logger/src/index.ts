export { createLogger } from "./create-logger";
export type { Logger } from "./create-logger";
export { redact } from "./redact";

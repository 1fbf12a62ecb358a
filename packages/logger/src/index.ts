export { createLogger } from "./create-logger";
export type { Logger } from "./create-logger";
export { redact, scrubString } from "./redact";
export { withLogContext, currentLogContext } from "./log-context";
export type { LogFields } from "./log-context";
export { throttledLog } from "./throttled-log";
export type { ThrottledLog } from "./throttled-log";

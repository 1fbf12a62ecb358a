export { createRedis, assertNoEviction } from "./redis";
export type { RedisRole } from "./redis";
export { Producer } from "./producer";
export { startWorker, DEPTH_STATES } from "./worker";
export type { HandlerMap, WorkerOptions } from "./worker";
export type { WorkerMetrics, JobRun } from "./worker-metrics";
export { jobLogFields } from "./job-log-fields";
export { DelayedError, UnrecoverableError } from "bullmq";
export type { Job } from "bullmq";

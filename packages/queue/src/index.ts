export { createRedis, assertNoEviction } from "./redis";
export type { RedisRole } from "./redis";
export { Producer } from "./producer";
export { startWorker } from "./worker";
export type { HandlerMap, WorkerOptions } from "./worker";
export { DelayedError, UnrecoverableError } from "bullmq";
export type { Job } from "bullmq";

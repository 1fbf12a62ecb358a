export { runService } from "./run-service";
export type { ServiceContext, RunningService } from "./run-service";
export { startHealthServer, runChecks } from "./health-server";
export type { ReadinessChecks } from "./health-server";

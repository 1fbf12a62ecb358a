import { AppError, unavailableDependency, type Dependency } from "@esign/errors";
import { throttledLog, type Logger, type ThrottledLog } from "@esign/logger";

/**
 * How long a client is asked to wait while PostgreSQL or Redis is away. A restart or failover takes
 * seconds, and what the request needed is back within seconds after it (README, "Recovery").
 */
export const RETRY_AFTER_SECONDS = 2;
// During an outage every request fails the same way: one line per dependency this often says so.
const LOG_EVERY_MS = 5000;

const logs = new WeakMap<Logger, ThrottledLog>();

function logThrottled(logger: Logger, dependency: Dependency, err: unknown): void {
  let log = logs.get(logger);
  if (!log) logs.set(logger, (log = throttledLog(logger, LOG_EVERY_MS)));
  log("warn", `${dependency} unavailable; answering 503`, { dependency, error: (err as Error).message });
}

/**
 * The answer to a request that failed because PostgreSQL, Redis or the object store could not be
 * reached (refused, dropped, restarting, out of connections): 503 `service_unavailable` with Retry-After, never a 500.
 * Which dependency, and the driver's text (hosts, ports), stay in the log. Undefined for any other error.
 */
export function unavailableError(err: unknown, logger: Logger): AppError | undefined {
  const dependency = unavailableDependency(err);
  if (!dependency) return undefined;
  logThrottled(logger, dependency, err);
  return new AppError("service_unavailable", "The service is temporarily unavailable; retry shortly", undefined, {
    "Retry-After": String(RETRY_AFTER_SECONDS),
  });
}

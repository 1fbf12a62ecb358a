import type { RedisConnection } from "./redis";
import type { Logger } from "@esign/logger";
import { onRedisReconnect } from "./redis-reconnect";
import type { RecoveryMetrics } from "./recovery-metrics";

export interface ReconnectSweepOptions {
  /** The connection whose return triggers the sweep: the one the sweep enqueues on. */
  connection: RedisConnection;
  /** The backlog's name in logs and metrics, e.g. `casefile_sweep`. */
  name: string;
  /** Enqueues what PostgreSQL holds and Redis may have missed; resolves with how many it enqueued. */
  sweep: () => Promise<number>;
  logger: Logger;
  metrics?: RecoveryMetrics;
}

export interface ReconnectSweep {
  /** Stops watching and waits for a sweep in progress. */
  stop(): Promise<void>;
}

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5000;

/**
 * Runs a sweep as soon as Redis answers again, instead of waiting for the periodic one. A sweep that
 * fails (Redis gone again, PostgreSQL away) is retried with backoff until one succeeds; the time from
 * the reconnect to that success is the recovery time reported. One sweep at a time; a reconnect
 * during one runs another after it.
 */
export function sweepOnReconnect(opts: ReconnectSweepOptions): ReconnectSweep {
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let since = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let wakeRetry: (() => void) | undefined;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      retryTimer = setTimeout(resolve, ms);
      wakeRetry = resolve;
    });

  const runUntilDone = async () => {
    let delay = RETRY_MIN_MS;
    let failures = 0;
    while (!stopped) {
      try {
        const requeued = await opts.sweep();
        const seconds = (Date.now() - since) / 1000;
        opts.metrics?.recovered({ dependency: "redis", backlog: opts.name, seconds, requeued });
        opts.logger.info("reconnect sweep done", { backlog: opts.name, requeued, recoverySeconds: seconds, failedSweeps: failures });
        return;
      } catch (err) {
        if (failures === 0) opts.logger.warn("reconnect sweep failed; retrying", { backlog: opts.name, err });
        failures += 1;
        await pause(delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
    }
  };

  const start = () => {
    if (running) {
      again = true;
      return;
    }
    since = Date.now();
    running = runUntilDone().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        start();
      }
    });
  };

  const unwatch = onRedisReconnect(opts.connection, (outageMs) => {
    opts.logger.info("Redis answers again; sweeping", { backlog: opts.name, outageMs });
    start();
  });
  return {
    async stop() {
      stopped = true;
      unwatch();
      clearTimeout(retryTimer);
      wakeRetry?.();
      await running;
    },
  };
}

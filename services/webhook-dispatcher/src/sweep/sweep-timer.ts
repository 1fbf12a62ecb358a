import type { Logger } from "@esign/logger";
import type { SweepResult } from "./sweep-webhooks";

export interface SweepTimerOptions {
  intervalMs: number;
  /** The first sweep comes soon after boot: a restarted dispatcher heals what its crash left. */
  firstDelayMs: number;
  logger: Logger;
}

/**
 * Runs `sweep` on a timer with +-50% jitter, so replicas started together do not sweep in lockstep.
 * One sweep at a time per process; a failed sweep is logged and the next one tries again.
 *
 * Stand-in for a repeatable BullMQ job (one sweep per interval across all replicas): that needs a
 * `webhooks/sweep` entry in the job catalog, which this service cannot add on its own.
 */
export function startSweepTimer(sweep: () => Promise<SweepResult>, opts: SweepTimerOptions): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const jittered = (ms: number) => Math.round(ms * (0.5 + Math.random()));

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweep()
        .then((r) => {
          if (r.deliveriesRequeued + r.notificationsRequeued > 0) opts.logger.info("webhook sweep re-enqueued work", { ...r });
        })
        .catch((err: unknown) => {
          opts.logger.warn("webhook sweep failed; next sweep retries", { err });
        })
        .finally(() => {
          running = undefined;
          schedule(jittered(opts.intervalMs));
        });
    }, ms);
  };
  schedule(jittered(opts.firstDelayMs));

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

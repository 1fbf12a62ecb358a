import { performance } from "node:perf_hooks";
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from "bullmq";
import type { RedisConnection } from "./redis";
import { isDependencyUnavailable, unavailableDependency, type Dependency } from "@esign/errors";
import { jobCatalog, type JobData, type JobNames, type QueueName } from "@esign/schema";
import { throttledLog, withLogContext, type Logger } from "@esign/logger";
import { jobLogFields } from "./job-log-fields";
import type { JobRun, WorkerMetrics } from "./worker-metrics";

/** One handler per job name of the queue: a missing handler does not compile. */
export type HandlerMap<Q extends QueueName> = {
  [N in JobNames<Q>]: (data: JobData<Q, N>, job: Job) => Promise<unknown>;
};

export interface WorkerOptions {
  connection: RedisConnection;
  prefix: string;
  logger: Logger;
  concurrency?: number;
  lockDuration?: number;
  stalledInterval?: number;
  /** Queue depth and job metrics (packages/runtime's queueMetrics()); none when absent. */
  metrics?: WorkerMetrics;
}

/** The states whose job counts make a queue's depth. */
export const DEPTH_STATES = ["waiting", "delayed", "active", "failed"] as const;

// Errors with which a handler hands the job back to BullMQ for later: not a failure.
const DEFERRING_ERRORS = new Set(["DelayedError", "WaitingError", "WaitingChildrenError", "RateLimitError"]);

// A job whose PostgreSQL (or Redis) is away is put back for 250 ms, doubling to 2 s while it stays
// away: within 2 s of the database answering again the job runs, and a long outage costs a wake-up
// per job every 2 s instead of its attempts.
const DEFER_MIN_MS = 250;
const DEFER_MAX_MS = 2000;
// While a dependency is away every job defers and every reconnect attempt fails: one line of each
// kind per worker this often says so.
const OUTAGE_LOG_EVERY_MS = 10_000;

/** How long to put a job back: its runs that ended without a recorded attempt (deferrals) double it. */
export function deferDelayMs(job: Pick<Job, "attemptsStarted" | "attemptsMade">): number {
  const deferrals = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
  return Math.min(DEFER_MAX_MS, DEFER_MIN_MS * 2 ** Math.min(deferrals, 10));
}

/** From when the job was due to when this run started; only a job's first run says something about the queue. */
function waitOf(job: Job): number | undefined {
  if (job.attemptsMade > 0 || job.attemptsStarted > 1 || !job.processedOn) return undefined;
  return job.processedOn - (job.timestamp + (job.delay || 0));
}

/**
 * A BullMQ worker over the catalog: validates each job's data (an invalid payload is unrecoverable,
 * retrying it cannot help), calls the handler, and reports the run to the metrics. Everything
 * logged while a job runs, through any logger, carries `queue`, `jobId`, `jobName` and the ids in
 * the job's data (`caseFileId`, `eventId`, `deliveryId`, ...): job data holds ids only.
 */
export function startWorker<Q extends QueueName>(queue: Q, handlers: HandlerMap<Q>, opts: WorkerOptions): Worker {
  const catalog = jobCatalog[queue] as Record<string, { schema: { safeParse(v: unknown): { success: boolean; data?: unknown; error?: unknown } } }>;
  const metrics = opts.metrics;
  // A metrics fault must never turn a job's outcome around.
  const report = (r: JobRun) => {
    try {
      metrics?.jobRun(r);
    } catch (err) {
      opts.logger.warn("job metrics not recorded", { queue, error: (err as Error).message });
    }
  };

  const run = async (job: Job, log: Logger): Promise<unknown> => {
    const spec = catalog[job.name];
    const handler = (handlers as Record<string, ((data: unknown, job: Job) => Promise<unknown>) | undefined>)[job.name];
    if (!spec || !handler) throw new UnrecoverableError(`no handler for job ${queue}/${job.name}`);
    const parsed = spec.schema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid data for job ${queue}/${job.name}`);
    return withLogContext(jobLogFields(parsed.data), () => {
      log.debug("job started", { attemptsMade: job.attemptsMade });
      return handler(parsed.data, job);
    });
  };

  const outageLog = throttledLog(opts.logger, OUTAGE_LOG_EVERY_MS);
  /**
   * PostgreSQL or Redis being away is no fault of the job: it goes back to the delayed set without
   * using an attempt (BullMQ's DelayedError), so an outage longer than its retry budget neither fails
   * it (a create accepted before a database restart would end "failed") nor leaves it on an
   * exponential backoff that fires long after the database is back.
   */
  const defer = async (job: Job, token: string | undefined, dependency: Dependency, err: unknown): Promise<never> => {
    const delayMs = deferDelayMs(job);
    await job.moveToDelayed(Date.now() + delayMs, token);
    outageLog("warn", `jobs put back: ${dependency} unavailable`, { queue, delayMs, error: (err as Error).message });
    throw new DelayedError(`${dependency} unavailable; retried in ${delayMs} ms`);
  };

  const worker = new Worker(
    queue,
    (job: Job, token?: string) => {
      const fields = { queue, jobId: job.id ?? "", jobName: job.name };
      return withLogContext(fields, async () => {
        const log = opts.logger.child(fields);
        const started = performance.now();
        const waitMs = waitOf(job);
        try {
          const result = await run(job, log);
          report({ queue, jobName: job.name, outcome: "completed", waitMs, durationMs: performance.now() - started });
          return result;
        } catch (err) {
          const dependency = unavailableDependency(err);
          const outcome = dependency || DEFERRING_ERRORS.has((err as Error)?.name) ? "deferred" : "failed";
          report({ queue, jobName: job.name, outcome, waitMs, durationMs: performance.now() - started });
          if (dependency) return defer(job, token, dependency, err);
          throw err;
        }
      });
    },
    {
      connection: opts.connection,
      prefix: opts.prefix,
      concurrency: opts.concurrency ?? 4,
      lockDuration: opts.lockDuration ?? 30_000,
      stalledInterval: opts.stalledInterval ?? 30_000,
      // A job whose worker died is retried; more than a few deaths in a row means a poison job.
      maxStalledCount: 3,
    },
  );
  // Connection errors repeat with every reconnect attempt while Redis is away; anything else is
  // logged as it comes.
  worker.on("error", (err) =>
    isDependencyUnavailable(err) ? outageLog("error", "worker error", { queue, err }) : opts.logger.error("worker error", { queue, err }),
  );
  worker.on("failed", (job, err) =>
    opts.logger.warn("job failed", { queue, jobId: job?.id, jobName: job?.name, attemptsMade: job?.attemptsMade, error: err.message }),
  );

  if (metrics) {
    // Depth is read on scrape through a Queue on the worker's own connection (no extra socket).
    const counts = new Queue(queue, { connection: opts.connection, prefix: opts.prefix });
    counts.on("error", (err) => outageLog("warn", "queue depth reader error", { queue, error: err.message }));
    const untrack = metrics.trackQueue(queue, async () => {
      // BullMQ adds `paused` to a request for `waiting`: jobs of a paused queue are still waiting.
      const c = await counts.getJobCounts(...DEPTH_STATES);
      return { waiting: (c.waiting ?? 0) + (c.paused ?? 0), delayed: c.delayed ?? 0, active: c.active ?? 0, failed: c.failed ?? 0 };
    });
    worker.once("closing", () => {
      untrack();
      void counts.close();
    });
  }
  return worker;
}

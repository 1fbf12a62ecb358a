import { UnrecoverableError, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { jobCatalog, type JobData, type JobNames, type QueueName } from "@esign/schema";
import type { Logger } from "@esign/logger";

/** One handler per job name of the queue: a missing handler does not compile. */
export type HandlerMap<Q extends QueueName> = {
  [N in JobNames<Q>]: (data: JobData<Q, N>, job: Job) => Promise<unknown>;
};

export interface WorkerOptions {
  connection: Redis;
  prefix: string;
  logger: Logger;
  concurrency?: number;
  lockDuration?: number;
  stalledInterval?: number;
}

/**
 * A BullMQ worker over the catalog: validates each job's data (an invalid payload is unrecoverable,
 * retrying it cannot help), calls the handler, logs with the job id for correlation.
 */
export function startWorker<Q extends QueueName>(queue: Q, handlers: HandlerMap<Q>, opts: WorkerOptions): Worker {
  const catalog = jobCatalog[queue] as Record<string, { schema: { safeParse(v: unknown): { success: boolean; data?: unknown; error?: unknown } } }>;
  const worker = new Worker(
    queue,
    async (job: Job) => {
      const spec = catalog[job.name];
      const handler = (handlers as Record<string, ((data: unknown, job: Job) => Promise<unknown>) | undefined>)[job.name];
      if (!spec || !handler) throw new UnrecoverableError(`no handler for job ${queue}/${job.name}`);
      const parsed = spec.schema.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`invalid data for job ${queue}/${job.name}`);
      return handler(parsed.data, job);
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
  worker.on("error", (err) => opts.logger.error("worker error", { queue, err }));
  worker.on("failed", (job, err) =>
    opts.logger.warn("job failed", { queue, jobId: job?.id, jobName: job?.name, attemptsMade: job?.attemptsMade, error: err.message }),
  );
  return worker;
}

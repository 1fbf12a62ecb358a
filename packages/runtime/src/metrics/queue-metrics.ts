import type { Registry } from "prom-client";
import type { Logger } from "@esign/logger";
import { cachedRead } from "./cached-read";
import { counter, gauge, histogram, metricsRegistry } from "./registry";

/** One run of a job, as a worker saw it. */
export interface JobRunSample {
  queue: string;
  jobName: string;
  /** `deferred`: the handler put the job back for later (BullMQ's DelayedError); neither done nor failed. */
  outcome: "completed" | "failed" | "deferred";
  /** From when the job was due (added, plus its delay) to when a worker took it; first attempts only. */
  waitMs: number | undefined;
  /** The handler's own run time. */
  durationMs: number;
}

/** Job counts by state, as BullMQ's Queue.getJobCounts answers them. */
export type QueueCounts = Record<string, number>;

/** What packages/queue's startWorker reports to (its WorkerMetrics hook); see queueMetrics(). */
export interface QueueMetrics {
  /** Reads the queue's depth on every scrape (cached ~1 s); returns the function that stops it. */
  trackQueue(queue: string, readCounts: () => Promise<QueueCounts>): () => void;
  jobRun(sample: JobRunSample): void;
}

export interface QueueMetricsOptions {
  registry?: Registry;
  depthTtlMs?: number;
  /** Told (warn) when a queue's depth could not be read (Redis away); that queue is left out of the scrape. */
  logger?: Pick<Logger, "warn">;
}

// Waits span a busy queue's milliseconds to a backlog's minutes; runs, a webhook POST to a PDF stamp.
const WAIT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const QUEUE_METRIC_NAMES = {
  depth: "esign_queue_depth",
  wait: "esign_queue_job_wait_seconds",
  duration: "esign_queue_job_duration_seconds",
  completed: "esign_queue_jobs_completed_total",
  failed: "esign_queue_jobs_failed_total",
} as const;

const perRegistry = new WeakMap<Registry, QueueMetrics>();

/**
 * Queue depth and job metrics of one process, for every worker it runs: the same object for the
 * same registry, so two workers in one process share the series (told apart by the queue label).
 */
export function queueMetrics(opts: QueueMetricsOptions = {}): QueueMetrics {
  const registry = opts.registry ?? metricsRegistry();
  const known = perRegistry.get(registry);
  if (known) return known;

  const tracked = new Map<string, () => Promise<QueueCounts>>();
  gauge(
    {
      name: QUEUE_METRIC_NAMES.depth,
      help: "Jobs in the queue by state (waiting, delayed, active, failed), read from Redis when scraped",
      labelNames: ["queue", "state"] as const,
      async collect() {
        // Rebuilt on every scrape: a queue that stopped being tracked, or could not be read, drops out.
        this.reset();
        await Promise.all(
          [...tracked].map(async ([queue, read]) => {
            try {
              const counts = await read();
              for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
            } catch (err) {
              opts.logger?.warn("queue depth not read", { queue, error: (err as Error).message });
            }
          }),
        );
      },
    },
    registry,
  );
  const labels = ["queue", "job_name"] as const;
  const wait = histogram(
    { name: QUEUE_METRIC_NAMES.wait, help: "Time from a job being due to a worker taking it (first attempts)", labelNames: labels, buckets: WAIT_BUCKETS },
    registry,
  );
  const duration = histogram({ name: QUEUE_METRIC_NAMES.duration, help: "Time a job's handler ran", labelNames: labels, buckets: DURATION_BUCKETS }, registry);
  const completed = counter({ name: QUEUE_METRIC_NAMES.completed, help: "Job runs that completed", labelNames: labels }, registry);
  const failed = counter({ name: QUEUE_METRIC_NAMES.failed, help: "Job runs that failed (each failed attempt, retried or not)", labelNames: labels }, registry);

  const metrics: QueueMetrics = {
    trackQueue(queue, readCounts) {
      const read = cachedRead(readCounts, opts.depthTtlMs ?? 1000);
      tracked.set(queue, read);
      return () => {
        if (tracked.get(queue) === read) tracked.delete(queue);
      };
    },
    jobRun(sample) {
      const l = { queue: sample.queue, job_name: sample.jobName };
      if (sample.waitMs !== undefined) wait.observe(l, Math.max(0, sample.waitMs) / 1000);
      if (sample.outcome === "deferred") return;
      duration.observe(l, sample.durationMs / 1000);
      (sample.outcome === "completed" ? completed : failed).inc(l);
    },
  };
  perRegistry.set(registry, metrics);
  return metrics;
}

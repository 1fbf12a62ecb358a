/**
 * What startWorker reports, as an interface of its own so this package needs no metrics library:
 * packages/runtime's queueMetrics() implements it (a service's main.ts passes one in).
 */
export interface JobRun {
  queue: string;
  jobName: string;
  /** `deferred`: the handler put the job back for later (DelayedError and the like). */
  outcome: "completed" | "failed" | "deferred";
  /** Due (added + delay) to taken by a worker, in ms; only on a job's first run. */
  waitMs: number | undefined;
  /** The handler's run time in ms. */
  durationMs: number;
}

export interface WorkerMetrics {
  /** Registers a reader of the queue's job counts by state, read when metrics are scraped; returns the unregister function. */
  trackQueue(queue: string, readCounts: () => Promise<Record<string, number>>): () => void;
  jobRun(run: JobRun): void;
}

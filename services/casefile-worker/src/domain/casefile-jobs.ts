import type { JobData, JobNames } from "@esign/schema";
import { DelayedError, type Job, type JobRequest } from "@esign/queue";
import type { WorkerContext } from "../context";

/*
 * Job ids of the lifecycle jobs. They derive from the rows (and, for timers, from the moment they aim
 * at), so enqueueing the same job again - after a crash, from the sweeper - is a no-op in BullMQ, while
 * a moved date gets a job of its own. BullMQ reserves ":" in custom ids, hence "-".
 */
export const jobIds = {
  expire: (caseFileId: number, at: Date) => `expire-${caseFileId}-${at.getTime()}`,
  expireSigner: (signerId: number, at: Date) => `expire-signer-${signerId}-${at.getTime()}`,
  activateSigner: (signerId: number, at: Date) => `activate-signer-${signerId}-${at.getTime()}`,
  finalize: (caseFileId: number) => `finalize-${caseFileId}`,
  advanceAfterSignerExpired: (signerId: number) => `advance-signer-expired-${signerId}`,
  advanceSweep: (caseFileId: number) => `advance-sweep-${caseFileId}`,
} as const;

/** A job's options to run at `at` (at once when `at` has passed). */
const runAt = (jobId: string, at: Date) => ({ jobId, delay: Math.max(0, at.getTime() - Date.now()) });

/** A casefile job to run at `at` (at once when `at` has passed), for a batch (Producer.enqueueAll). */
export function casefileJobAt<N extends JobNames<"casefile">>(name: N, data: JobData<"casefile", N>, jobId: string, at: Date = new Date()): JobRequest {
  return { queue: "casefile", name, data, opts: runAt(jobId, at) };
}

/** Enqueues a casefile job to run at `at` (at once when `at` has passed). */
export function enqueueAt<N extends JobNames<"casefile">>(
  ctx: WorkerContext,
  name: N,
  data: JobData<"casefile", N>,
  jobId: string,
  at: Date = new Date(),
): Promise<string> {
  return ctx.producer.enqueue("casefile", name, data, runAt(jobId, at));
}

/** Puts the running job back to sleep until `at`, keeping its id and not counting an attempt. */
export async function sleepUntil(job: Job, at: Date): Promise<never> {
  await job.moveToDelayed(at.getTime(), job.token);
  throw new DelayedError(`rescheduled to ${at.toISOString()}`);
}

export const isLastAttempt = (job: Job): boolean => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

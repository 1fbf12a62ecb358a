import type { Producer } from "@esign/queue";
import type { EnsureJobResult } from "./delivery-jobs";

/** The values of WebhookRecoverTask.state. */
export const RECOVER_STATE = {
  /** Created; its job has not started. */
  queued: "queued",
  /** Putting its deliveries back on a new ladder, batch by batch. */
  running: "running",
  /** Every delivery of its window was put back (they are then delivered like any other). */
  completed: "completed",
  /** Stopped before the end: its subscription was disabled or deleted meanwhile. */
  cancelled: "cancelled",
} as const;
export type RecoverState = (typeof RECOVER_STATE)[keyof typeof RECOVER_STATE];

/** One job per task: enqueueing it again (the sweeper, a retried call) leaves one. */
export const recoverJobId = (taskId: string): string => `recover-${taskId}`;

/** Enqueues the task's job; a no-op while that job exists. Call after the task row is committed. */
export async function enqueueRecoverTask(producer: Producer, taskId: string): Promise<void> {
  await producer.enqueue("webhooks", "recover", { taskId }, { jobId: recoverJobId(taskId) });
}

/**
 * For the sweeper: makes sure an unfinished task has a job. A job that finished or failed while its
 * task is still unfinished (its batches were cut short) is replaced; a live one is left alone.
 */
export async function ensureRecoverJob(producer: Producer, taskId: string): Promise<EnsureJobResult> {
  const existing = await producer.queue("webhooks").getJob(recoverJobId(taskId));
  if (existing) {
    const state = await existing.getState();
    if (state !== "completed" && state !== "failed" && state !== "unknown") return "exists";
    if (state !== "unknown") await existing.remove();
  }
  await enqueueRecoverTask(producer, taskId);
  return existing ? "replaced" : "added";
}

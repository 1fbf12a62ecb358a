import { createHash } from "node:crypto";
import type { Producer } from "@esign/queue";

/*
 * Job ids are derived from rows, never random: enqueueing the same attempt twice (a retried handler,
 * the sweeper, a redelivery racing the ladder) leaves one BullMQ job. BullMQ reserves ':' in ids.
 */

/** The job that makes attempt `attempt` (1-based, counted over the delivery's whole life). */
export const deliverJobId = (deliveryId: string, attempt: number): string => `${deliveryId}-${attempt}`;

/**
 * The events/dispatch job of a relayed batch: the event's own id for a batch of one, otherwise a
 * digest of the ids in order. A drain that crashed after its enqueue but before its commit claims
 * the same rows again and gets the same id (BullMQ keeps one job); a different batch gets another
 * job, and the fan-out's unique (eventId, subscriptionId) keeps one delivery per pair either way.
 */
export const dispatchJobId = (eventIds: readonly string[]): string =>
  eventIds.length === 1 ? eventIds[0]! : `batch-${createHash("sha256").update(eventIds.join(",")).digest("hex").slice(0, 40)}`;

/** One "subscription disabled" notification per disablement (a later one gets a new id). */
export const subscriptionDisabledJobId = (subscriptionId: string, disabledAt: Date): string => `disabled-${subscriptionId}-${disabledAt.getTime()}`;

/** Schedules attempt `attempt` after `delayMs`; a no-op when that job already exists. */
export async function scheduleAttempt(producer: Producer, deliveryId: string, attempt: number, delayMs = 0): Promise<void> {
  await producer.enqueue("webhooks", "deliver", { deliveryId, attempt }, { jobId: deliverJobId(deliveryId, attempt), delay: Math.max(0, Math.round(delayMs)) });
}

/**
 * A throttled attempt waiting for its reserved turn (`slotAt`, ms): a job of its own (the attempt's
 * own id may be the job running now), made at its turn without reserving again.
 */
export async function scheduleThrottledAttempt(producer: Producer, deliveryId: string, attempt: number, slotAt: number, delayMs: number): Promise<void> {
  await producer.enqueue(
    "webhooks",
    "deliver",
    { deliveryId, attempt, slotAt },
    { jobId: `${deliverJobId(deliveryId, attempt)}-slot-${slotAt}`, delay: Math.max(0, Math.round(delayMs)) },
  );
}

export type EnsureJobResult = "added" | "exists" | "promoted" | "replaced";

/**
 * Makes sure attempt `attempt` runs now. Unlike `scheduleAttempt` this also handles a job that is
 * already there under the same id: a delayed one is promoted, and a finished one (e.g. a run that
 * found the subscription disabled and stopped) is replaced, since BullMQ ignores an add whose id
 * it still holds. A waiting or active job is left alone: it is about to make the attempt anyway.
 */
export async function ensureAttemptNow(producer: Producer, deliveryId: string, attempt: number): Promise<EnsureJobResult> {
  const existing = await producer.queue("webhooks").getJob(deliverJobId(deliveryId, attempt));
  if (existing) {
    const state = await existing.getState();
    if (state === "delayed") {
      try {
        await existing.promote();
        return "promoted";
      } catch (err) {
        // Promoted or started by someone else in the meantime: that is the outcome we wanted.
        if ((await existing.getState()) === "delayed") throw err;
        return "exists";
      }
    }
    if (state !== "completed" && state !== "failed" && state !== "unknown") return "exists";
    if (state !== "unknown") await existing.remove();
  }
  await scheduleAttempt(producer, deliveryId, attempt, 0);
  return existing ? "replaced" : "added";
}

/**
 * Makes sure the "subscription disabled" notification job exists. A job that failed all its
 * attempts is retried; a completed one is left alone (the notifier decided, e.g. nobody to mail).
 */
export async function ensureDisabledNotification(producer: Producer, subscriptionId: string, disabledAt: Date): Promise<EnsureJobResult> {
  const jobId = subscriptionDisabledJobId(subscriptionId, disabledAt);
  const existing = await producer.queue("notifications").getJob(jobId);
  if (existing) {
    if ((await existing.getState()) !== "failed") return "exists";
    await existing.retry("failed");
    return "replaced";
  }
  await producer.enqueue("notifications", "subscription-disabled", { subscriptionId }, { jobId });
  return "added";
}

import type { Db } from "@esign/db";
import type { Producer } from "@esign/queue";
import { deliverJobId, ensureAttemptNow } from "./delivery-jobs";
import { DELIVERY_STATE } from "./delivery-states";

/** How long a redelivery waits for an attempt in flight (a webhook request has a 10 s timeout). */
const IN_FLIGHT_WAIT_MS = 15_000;
const IN_FLIGHT_POLL_MS = 50;

/**
 * Whether an attempt of the delivery is being made right now: its `deliver` job (a retry, an earlier
 * redelivery) is running, or the `dispatch` job of its event's relayed batch is (the first attempt is
 * made there, right after the fan-out).
 */
async function attemptInFlight(producer: Producer, deliveryId: string, attempt: number, eventId: string): Promise<boolean> {
  const deliver = await producer.queue("webhooks").getJob(deliverJobId(deliveryId, attempt));
  if (deliver && (await deliver.getState()) === "active") return true;
  const dispatching = await producer.queue("events").getJobs(["active"]);
  return dispatching.some((job) => {
    const ids: unknown = (job.data as { eventIds?: unknown } | undefined)?.eventIds;
    return Array.isArray(ids) && ids.includes(eventId);
  });
}

/**
 * Waits while an attempt is in flight. It would record its outcome over the reset a redelivery makes
 * (its record expects the state it started from, which the reset keeps), and the redelivery's own
 * attempt would then be left out of the log: asked for right after a delivery (the receiver has
 * answered, the dispatcher has not yet written it down), a redelivery used to show one attempt.
 */
async function settleAttemptInFlight(producer: Producer, deliveryId: string, attempt: number, eventId: string): Promise<void> {
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  while (Date.now() < deadline && (await attemptInFlight(producer, deliveryId, attempt, eventId))) await new Promise((r) => setTimeout(r, IN_FLIGHT_POLL_MS));
}

/**
 * Delivers an event to a subscription again: a new ladder starts now, with the same event id (so
 * X-Event-Id is unchanged) and the next attempt number of the log. False when that subscription
 * never had a delivery of that event. Durable once it returns or throws after the update: a job
 * that could not be enqueued is enqueued by the dispatcher's sweeper.
 */
export async function requestRedelivery(db: Db, producer: Producer, subscriptionId: string, eventId: string): Promise<boolean> {
  const key = { eventId_subscriptionId: { eventId, subscriptionId } };
  const before = await db.webhookDelivery.findUnique({ where: key, select: { id: true, attempts: true } });
  if (!before) return false;
  await settleAttemptInFlight(producer, before.id, before.attempts + 1, eventId);
  const delivery = await db.webhookDelivery.update({
    where: key,
    data: { state: DELIVERY_STATE.pending, ladderStep: 0, nextAttemptAt: new Date() },
    select: { id: true, attempts: true },
  });
  await ensureAttemptNow(producer, delivery.id, delivery.attempts + 1);
  return true;
}

import type { Db } from "@esign/db";
import type { Producer } from "@esign/queue";
import { ensureAttemptNow } from "./delivery-jobs";
import { DELIVERY_STATE } from "./delivery-states";

/**
 * Delivers an event to a subscription again: a new ladder starts now, with the same event id (so
 * X-Event-Id is unchanged) and the next attempt number of the log. False when that subscription
 * never had a delivery of that event. Durable once it returns or throws after the update: a job
 * that could not be enqueued is enqueued by the dispatcher's sweeper.
 */
export async function requestRedelivery(db: Db, producer: Producer, subscriptionId: string, eventId: string): Promise<boolean> {
  const now = new Date();
  const { count } = await db.webhookDelivery.updateMany({
    where: { eventId, subscriptionId },
    data: { state: DELIVERY_STATE.pending, ladderStep: 0, nextAttemptAt: now },
  });
  if (count === 0) return false;
  const delivery = await db.webhookDelivery.findUniqueOrThrow({
    where: { eventId_subscriptionId: { eventId, subscriptionId } },
    select: { id: true, attempts: true },
  });
  await ensureAttemptNow(producer, delivery.id, delivery.attempts + 1);
  return true;
}

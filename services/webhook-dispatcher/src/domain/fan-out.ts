import { randomUUID } from "node:crypto";
import { DELIVERY_STATE, scheduleAttempt } from "@esign/webhooks";
import type { DispatcherContext } from "../context";

/**
 * Turns an event into one delivery per matching subscription and schedules each first attempt.
 * Matching: the customer's active, undeleted subscriptions holding the event type (events of every
 * user of the account), or only the target of a test event. Safe to run again: the unique
 * (eventId, subscriptionId) keeps one delivery each, and job ids derive from the delivery.
 */
export async function fanOutEvent(ctx: DispatcherContext, eventId: string): Promise<number> {
  const log = ctx.logger.child({ eventId });
  const event = await ctx.db.event.findUnique({ where: { id: eventId } });
  if (!event) {
    log.warn("event to dispatch not found");
    return 0;
  }
  const base = { customerId: event.customerId, isActive: true, deletedAt: null };
  const subscriptions = await ctx.db.webhookSubscription.findMany({
    where: event.targetSubscriptionId ? { ...base, id: event.targetSubscriptionId } : { ...base, eventTypes: { has: event.eventType } },
    select: { id: true },
  });
  const now = new Date();
  if (subscriptions.length > 0) {
    await ctx.db.webhookDelivery.createMany({
      data: subscriptions.map((s) => ({
        id: randomUUID(),
        eventId,
        subscriptionId: s.id,
        state: DELIVERY_STATE.pending,
        nextAttemptAt: now,
      })),
      skipDuplicates: true,
    });
  }
  // Re-read rather than trust createMany: on a second run the rows (and their ids) already exist.
  const pending = await ctx.db.webhookDelivery.findMany({
    where: { eventId, state: DELIVERY_STATE.pending },
    select: { id: true, attempts: true, nextAttemptAt: true, subscriptionId: true },
  });
  await Promise.all(
    pending.map((d) => scheduleAttempt(ctx.producer, d.id, d.attempts + 1, (d.nextAttemptAt?.getTime() ?? 0) - Date.now())),
  );
  // Most events match no subscription; those are only worth a debug line.
  log[pending.length > 0 ? "info" : "debug"]("event dispatched", { eventType: event.eventType, deliveries: pending.length });
  return pending.length;
}

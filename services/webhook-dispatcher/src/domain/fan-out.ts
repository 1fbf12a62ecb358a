import { DELIVERY_STATE, scheduleAttempt } from "@esign/webhooks";
import type { DispatcherContext } from "../context";
import { attemptDeliveries } from "./attempt-delivery";
import { fanOutAndLoad, type AttemptRow } from "./attempt-rows";

/**
 * Turns events (one outbox drain's) into one delivery per matching subscription and makes their
 * first attempts. One statement fans every event out and reads back what the attempts need
 * (fanOutAndLoad). A dispatcher that dies mid-attempt leaves this job stalled; BullMQ hands it to the
 * next one, which finds the unrecorded first attempts still at 0 and makes them again (same
 * X-Event-Id). Returns how many pending deliveries the events have.
 */
export async function fanOutEvents(ctx: DispatcherContext, eventIds: readonly string[]): Promise<number> {
  const fanned = await fanOutAndLoad(ctx, eventIds, DELIVERY_STATE.pending, new Date());
  for (const eventId of eventIds) if (!fanned.has(eventId)) ctx.logger.warn("event to dispatch not found", { eventId });
  const pending = [...fanned.values()].flatMap((event) => event.pending);
  const dueBy = Date.now();
  // First attempts that are due are made right here, together (one job, one read, and a record per
  // event, instead of a job, a read and a write per delivery). Anything further along - a re-run of
  // this job after some attempts were recorded - keeps its ladder.
  const firstNow: AttemptRow[] = [];
  const scheduled: AttemptRow[] = [];
  for (const d of pending) (d.attempts === 0 && (d.nextAttemptAt?.getTime() ?? 0) <= dueBy ? firstNow : scheduled).push(d);
  await Promise.all(scheduled.map((d) => scheduleAttempt(ctx.producer, d.deliveryId, d.attempts + 1, (d.nextAttemptAt?.getTime() ?? 0) - dueBy)));
  // First attempts made now get their own lines; a re-run's rescheduling is worth an info line.
  if (scheduled.length > 0) {
    ctx.logger.info("events dispatched; later attempts rescheduled", {
      events: [...fanned].map(([eventId, event]) => ({ eventId, eventType: event.eventType, deliveries: event.pending.length })),
      attemptingNow: firstNow.length,
      rescheduled: scheduled.length,
    });
  } else ctx.logger.debug("events dispatched", { events: fanned.size, attemptingNow: firstNow.length });
  await attemptDeliveries(
    ctx,
    firstNow.map((row) => ({ row, attempt: 1 })),
  );
  return pending.length;
}

import { DELIVERY_STATE, scheduleAttempt } from "@esign/webhooks";
import type { DispatcherContext } from "../context";
import { attemptDeliveries } from "./attempt-delivery";
import { fanOutAndLoad } from "./attempt-rows";

/**
 * Turns an event into one delivery per matching subscription and makes their first attempts.
 * One statement (fanOutAndLoad) instead of four Prisma queries, which cost ~6 ms of CPU per event
 * (bench/README.md). A dispatcher that dies mid-attempt leaves this job stalled; BullMQ hands it to
 * the next one, which finds the unrecorded first attempts still at 0 and makes them again (same
 * X-Event-Id).
 */
export async function fanOutEvent(ctx: DispatcherContext, eventId: string): Promise<number> {
  const log = ctx.logger.child({ eventId });
  const fanned = await fanOutAndLoad(ctx, eventId, DELIVERY_STATE.pending, new Date());
  if (!fanned) {
    log.warn("event to dispatch not found");
    return 0;
  }
  const { eventType, pending } = fanned;
  const dueBy = Date.now();
  // First attempts that are due are made right here, together (one job, one read and one write for
  // every subscription of the event, instead of a job, a read and a write each). Anything further
  // along - a re-run of this job after some attempts were recorded - keeps its ladder.
  const firstNow = pending.filter((d) => d.attempts === 0 && (d.nextAttemptAt?.getTime() ?? 0) <= dueBy);
  const scheduled = pending.filter((d) => !firstNow.includes(d));
  await Promise.all(scheduled.map((d) => scheduleAttempt(ctx.producer, d.deliveryId, d.attempts + 1, (d.nextAttemptAt?.getTime() ?? 0) - dueBy)));
  // Most events match no subscription, and first attempts made now get their own lines: debug then.
  log[pending.length > firstNow.length ? "info" : "debug"]("event dispatched", { eventType, deliveries: pending.length, attemptingNow: firstNow.length });
  await attemptDeliveries(ctx, firstNow.map((row) => ({ row, attempt: 1 })));
  return pending.length;
}

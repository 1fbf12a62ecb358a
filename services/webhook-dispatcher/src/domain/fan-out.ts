import { sqlPool } from "@esign/db";
import { DELIVERY_STATE, scheduleAttempt } from "@esign/webhooks";
import type { DispatcherContext } from "../context";
import { attemptDeliveries } from "./attempt-delivery";
import { loadPendingAttemptsOfEvent } from "./attempt-rows";

interface FannedOut {
  eventType: string;
}

/**
 * Turns an event into one delivery per matching subscription and makes their first attempts.
 * Matching: the customer's active, undeleted subscriptions holding the event type (events of every
 * user of the account), or only the target of a test event. Safe to run again: the unique
 * (eventId, subscriptionId) keeps one delivery each, and job ids derive from the delivery.
 *
 * Two plain statements on Prisma's own pool (match + insert, then the pending list with what the
 * attempts need) instead of four Prisma queries, which cost ~6 ms of CPU per event (bench/README.md).
 * A dispatcher that dies mid-attempt leaves this job stalled; BullMQ hands it to the next one, which
 * finds the unrecorded first attempts still at 0 and makes them again (same X-Event-Id).
 */
export async function fanOutEvent(ctx: DispatcherContext, eventId: string): Promise<number> {
  const log = ctx.logger.child({ eventId });
  const sql = sqlPool(ctx.db);
  const now = new Date();
  const { rows } = await sql.query<FannedOut>(
    `WITH ev AS (
       SELECT id, "customerId", "eventType", "targetSubscriptionId" FROM "Event" WHERE id = $1),
     matching AS (
       SELECT s.id FROM "WebhookSubscription" s JOIN ev ON s."customerId" = ev."customerId"
        WHERE s."isActive" AND s."deletedAt" IS NULL
          AND CASE WHEN ev."targetSubscriptionId" IS NOT NULL THEN s.id = ev."targetSubscriptionId"
                   ELSE s."eventTypes" @> ARRAY[ev."eventType"] END),
     created AS (
       INSERT INTO "WebhookDelivery" (id, "eventId", "subscriptionId", state, "nextAttemptAt", "createdAt", "updatedAt")
       SELECT gen_random_uuid(), $1::uuid, matching.id, $2::text, $3::timestamptz, $3::timestamptz, $3::timestamptz FROM matching
       ON CONFLICT ("eventId", "subscriptionId") DO NOTHING
       RETURNING id)
     SELECT ev."eventType", (SELECT count(*) FROM created) AS created FROM ev`,
    [eventId, DELIVERY_STATE.pending, now],
  );
  const event = rows[0];
  if (!event) {
    log.warn("event to dispatch not found");
    return 0;
  }
  // Re-read rather than trust the insert: on a second run the rows (and their ids) already exist.
  const pending = await loadPendingAttemptsOfEvent(ctx, eventId, DELIVERY_STATE.pending);
  const dueBy = Date.now();
  // First attempts that are due are made right here, together (one job, one read and one write for
  // every subscription of the event, instead of a job, a read and a write each). Anything further
  // along - a re-run of this job after some attempts were recorded - keeps its ladder.
  const firstNow = pending.filter((d) => d.attempts === 0 && (d.nextAttemptAt?.getTime() ?? 0) <= dueBy);
  const scheduled = pending.filter((d) => !firstNow.includes(d));
  await Promise.all(scheduled.map((d) => scheduleAttempt(ctx.producer, d.deliveryId, d.attempts + 1, (d.nextAttemptAt?.getTime() ?? 0) - dueBy)));
  // Most events match no subscription; those are only worth a debug line.
  log[pending.length > 0 ? "info" : "debug"]("event dispatched", { eventType: event.eventType, deliveries: pending.length, attemptingNow: firstNow.length });
  await attemptDeliveries(ctx, firstNow.map((row) => ({ row, attempt: 1 })));
  return pending.length;
}

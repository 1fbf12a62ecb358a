import { decryptSecret, sqlPool, type Prisma } from "@esign/db";
import { signDelivery } from "@esign/webhook-verify";
import { buildEventBody, DELIVERY_STATE, scheduleAttempt, subscriptionDisabledJobId, type DeliveryState } from "@esign/webhooks";
import type { DispatcherContext } from "../context";
import { recordAttempt } from "./record-attempt";

/** Stops a delivery that may no longer be attempted; only a pending one changes. */
async function stopDelivery(ctx: DispatcherContext, deliveryId: string, state: DeliveryState): Promise<void> {
  await ctx.db.webhookDelivery.updateMany({ where: { id: deliveryId, state: DELIVERY_STATE.pending }, data: { state, nextAttemptAt: null } });
}

/**
 * One attempt of one delivery (the webhooks/deliver job). Duplicates of the job are harmless: an
 * attempt number already in the log, or a delivery no longer pending, is skipped; two copies racing
 * may both POST (at-least-once, same X-Event-Id) but only one is recorded.
 */
interface AttemptRow {
  eventId: string;
  state: string;
  attempts: number;
  ladderStep: number;
  nextAttemptAt: Date | null;
  subscriptionId: string;
  endpoint: string;
  secretEnc: string;
  isActive: boolean;
  deletedAt: Date | null;
  /** null when the event row is gone. */
  eventRowId: string | null;
  topic: string;
  eventType: string;
  payload: Prisma.JsonValue;
  occurredAt: Date;
}

/**
 * Everything an attempt needs - delivery, subscription and event - in one statement on Prisma's own
 * pool: through Prisma these were three queries costing ~4 ms of CPU per delivery (bench/README.md).
 */
async function loadAttempt(ctx: DispatcherContext, deliveryId: string): Promise<AttemptRow | undefined> {
  const { rows } = await sqlPool(ctx.db).query<AttemptRow>(
    `SELECT d."eventId", d.state, d.attempts, d."ladderStep", d."nextAttemptAt",
            s.id AS "subscriptionId", s.endpoint, s."secretEnc", s."isActive", s."deletedAt",
            e.id AS "eventRowId", e.topic, e."eventType", e.payload, e."occurredAt"
       FROM "WebhookDelivery" d
       JOIN "WebhookSubscription" s ON s.id = d."subscriptionId"
       LEFT JOIN "Event" e ON e.id = d."eventId"
      WHERE d.id = $1`,
    [deliveryId],
  );
  return rows[0];
}

export async function attemptDelivery(ctx: DispatcherContext, deliveryId: string, attempt: number): Promise<void> {
  const delivery = await loadAttempt(ctx, deliveryId);
  if (!delivery) return void ctx.logger.warn("delivery not found", { deliveryId, attempt });
  const sub = { id: delivery.subscriptionId, endpoint: delivery.endpoint, secretEnc: delivery.secretEnc, isActive: delivery.isActive, deletedAt: delivery.deletedAt };
  const log = ctx.logger.child({ deliveryId, eventId: delivery.eventId, subscriptionId: sub.id, attempt });

  if (delivery.state !== DELIVERY_STATE.pending) return void log.debug("delivery not pending; attempt skipped", { state: delivery.state });
  if (attempt !== delivery.attempts + 1) {
    // A re-run of a recorded attempt (e.g. a stalled job whose worker died after committing): make
    // sure the attempt that is really next has its job, then stop.
    log.debug("attempt already recorded; skipped", { attempts: delivery.attempts });
    if (attempt <= delivery.attempts) {
      const delay = (delivery.nextAttemptAt?.getTime() ?? Date.now()) - Date.now();
      await scheduleAttempt(ctx.producer, deliveryId, delivery.attempts + 1, delay);
    }
    return;
  }
  if (sub.deletedAt) {
    await stopDelivery(ctx, deliveryId, DELIVERY_STATE.cancelled);
    return void log.info("subscription deleted; delivery cancelled");
  }
  if (!sub.isActive) {
    await stopDelivery(ctx, deliveryId, DELIVERY_STATE.suspended);
    return void log.info("subscription disabled; delivery suspended");
  }
  const event = delivery.eventRowId
    ? { id: delivery.eventRowId, topic: delivery.topic, eventType: delivery.eventType, payload: delivery.payload, occurredAt: delivery.occurredAt }
    : null;
  if (!event) {
    await stopDelivery(ctx, deliveryId, DELIVERY_STATE.cancelled);
    return void log.error("event of the delivery not found; delivery cancelled");
  }

  const body = buildEventBody(event);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Event-Id": event.id,
    "X-Event-Type": event.eventType,
  };
  // The secret is decrypted here and lives only for this attempt: job data carries ids only.
  headers["X-Event-Signature"] = signDelivery({ secret: decryptSecret(sub.secretEnc, ctx.config.ENCRYPTION_KEY), body, headers });

  const result = await ctx.sender.send({ url: sub.endpoint, body, headers });
  const now = new Date();
  const recorded = await recordAttempt(ctx.db, {
    deliveryId,
    eventId: event.id,
    subscriptionId: sub.id,
    attempt,
    result,
    now,
    ladderScale: ctx.config.WEBHOOK_LADDER_SCALE,
    // What this attempt was decided on: the record takes a one-statement path while it still holds.
    expected: { state: delivery.state, ladderStep: delivery.ladderStep },
  });
  const outcome = { outcome: result.outcome, cause: result.cause, httpStatus: result.httpStatus, durationMs: result.durationMs };

  switch (recorded.kind) {
    case "duplicate":
      return void log.info("attempt recorded by another run; this one dropped", outcome);
    case "succeeded":
      return void log.info("webhook delivered", outcome);
    case "stopped":
      return void log.info("attempt failed; delivery no longer pending", { ...outcome, state: recorded.state, detail: result.detail });
    case "retry":
      log.info("attempt failed; retry scheduled", { ...outcome, detail: result.detail, nextAttemptAt: recorded.nextAttemptAt.toISOString() });
      // After the commit: if this enqueue fails the job fails, and the sweeper finds the delivery
      // pending and overdue in PostgreSQL.
      await scheduleAttempt(ctx.producer, deliveryId, recorded.nextAttempt, recorded.nextAttemptAt.getTime() - Date.now());
      return;
    case "exhausted":
      log.warn("all attempts failed; delivery exhausted", { ...outcome, detail: result.detail, subscriptionDisabled: recorded.disabledAt !== null, suspended: recorded.suspended });
      if (recorded.disabledAt) {
        await ctx.producer.enqueue(
          "notifications",
          "subscription-disabled",
          { subscriptionId: sub.id },
          { jobId: subscriptionDisabledJobId(sub.id, recorded.disabledAt) },
        );
      }
      return;
  }
}

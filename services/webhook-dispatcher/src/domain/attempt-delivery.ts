import { decryptSecret } from "@esign/db";
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
export async function attemptDelivery(ctx: DispatcherContext, deliveryId: string, attempt: number): Promise<void> {
  const delivery = await ctx.db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { subscription: true } });
  if (!delivery) return void ctx.logger.warn("delivery not found", { deliveryId, attempt });
  const sub = delivery.subscription;
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
  const event = await ctx.db.event.findUnique({ where: { id: delivery.eventId } });
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

import type { Db } from "@esign/db";
import type { Logger } from "@esign/logger";
import type { Producer } from "@esign/queue";
import { scrapedGauge } from "@esign/runtime";
import { releaseOrphanedHeld } from "../domain/ordering";
import { warnFailingSubscriptions } from "./warn-failing";

const DEFAULT_FAILING_AFTER_MS = 86_400_000;
import { DELIVERY_STATE, ensureAttemptNow, ensureDisabledNotification, ensureRecoverJob, RECOVER_STATE } from "@esign/webhooks";

export interface SweepOptions {
  /** How long past its time a delivery (or a notification) may go without a job before it is re-enqueued. */
  graceMs: number;
  /** Rows looked at per kind and sweep; the rest waits for the next sweep. */
  limit: number;
  /** WEBHOOK_FAILING_AFTER_MS: failing this long with no success -> the failing warning. */
  failingAfterMs?: number;
}

export const DEFAULT_SWEEP_OPTIONS: SweepOptions = { graceMs: 30_000, limit: 500 };

/**
 * When Redis answers again: every retry and notification that is due and has no job is enqueued
 * at once. Their job ids are per attempt (per disablement), and an attempt already in the log is
 * skipped by the job, so this doubles nothing.
 */
export const RECONNECT_SWEEP_OPTIONS: SweepOptions = { graceMs: 0, limit: 500 };

/**
 * A first attempt is made by the events/dispatch job that fanned the delivery out, without a job of
 * its own: one enqueued while that job is still making it would POST twice. Whatever the sweep's
 * grace, first attempts are left alone until they are this late.
 */
export const FIRST_ATTEMPT_GRACE_MS = 30_000;

export interface SweepResult {
  deliveriesRequeued: number;
  notificationsRequeued: number;
  recoverTasksRequeued: number;
  heldReleased: number;
  failingWarned: number;
}

/**
 * The safety net behind "never lost": PostgreSQL is the system of record, Redis only schedules.
 * Pending deliveries overdue by more than the grace period get their next attempt's job back (a
 * job lost with Redis, an enqueue that failed after its commit, a job that failed outright), and
 * disabled subscriptions whose notification is still owed get it enqueued again. Job ids come from
 * the rows, so running this on several replicas at once only costs a few lookups. Unrelayed events
 * need nothing here: the outbox relay retries them on every poll.
 */
export async function sweepWebhooks(db: Db, producer: Producer, logger: Logger, options: SweepOptions = DEFAULT_SWEEP_OPTIONS): Promise<SweepResult> {
  const cutoff = new Date(Date.now() - options.graceMs);
  const firstAttemptCutoff = new Date(Date.now() - Math.max(options.graceMs, FIRST_ATTEMPT_GRACE_MS));
  const overdue = await db.webhookDelivery.findMany({
    where: {
      state: DELIVERY_STATE.pending,
      OR: [
        { attempts: { gt: 0 }, nextAttemptAt: { lt: cutoff } },
        { attempts: 0, nextAttemptAt: { lt: firstAttemptCutoff } },
      ],
    },
    select: { id: true, attempts: true, eventId: true, subscriptionId: true },
    orderBy: { nextAttemptAt: "asc" },
    take: options.limit,
  });
  let deliveriesRequeued = 0;
  for (const d of overdue) {
    const outcome = await ensureAttemptNow(producer, d.id, d.attempts + 1);
    if (outcome === "exists") continue;
    deliveriesRequeued += 1;
    logger.info("overdue delivery re-enqueued", { deliveryId: d.id, eventId: d.eventId, subscriptionId: d.subscriptionId, attempt: d.attempts + 1, outcome });
  }

  const owed = await db.webhookSubscription.findMany({
    where: { isActive: false, deletedAt: null, disabledAt: { lt: cutoff }, disabledNotifiedAt: null },
    select: { id: true, disabledAt: true },
    take: options.limit,
  });
  let notificationsRequeued = 0;
  for (const s of owed) {
    if (!s.disabledAt) continue;
    const outcome = await ensureDisabledNotification(producer, s.id, s.disabledAt);
    if (outcome === "exists") continue;
    notificationsRequeued += 1;
    logger.info("owed subscription-disabled notification re-enqueued", { subscriptionId: s.id, outcome });
  }
  // Recover tasks not finished and not moved on for the grace period: their job was lost or gave up.
  const stalled = await db.webhookRecoverTask.findMany({
    where: { state: { in: [RECOVER_STATE.queued, RECOVER_STATE.running] }, updatedAt: { lt: cutoff } },
    select: { id: true },
    orderBy: { updatedAt: "asc" },
    take: options.limit,
  });
  let recoverTasksRequeued = 0;
  for (const t of stalled) {
    const outcome = await ensureRecoverJob(producer, t.id);
    if (outcome === "exists") continue;
    recoverTasksRequeued += 1;
    logger.info("unfinished recover task re-enqueued", { recoverTaskId: t.id, outcome });
  }
  // Ordered deliveries held behind an event that has ended without releasing them.
  const heldReleased = await releaseOrphanedHeld({ db, producer }, options.limit);
  if (heldReleased > 0) logger.info("held ordered deliveries released", { heldReleased });
  const failingWarned = await warnFailingSubscriptions(db, producer, logger, options.failingAfterMs ?? DEFAULT_FAILING_AFTER_MS, options.limit);
  return { deliveriesRequeued, notificationsRequeued, recoverTasksRequeued, heldReleased, failingWarned };
}

/**
 * Gauges of what the sweep watches over, read from PostgreSQL when metrics are scraped (cached 1 s):
 * deliveries waiting for a retry (pending after at least one failed attempt) and subscriptions that
 * are disabled now (by the ladder or by their owner; deleted ones do not count).
 */
export function observeWebhookBacklog(db: Db, logger: Logger): void {
  const onError = (metric: string) => (err: unknown) => logger.warn("metric not read", { metric, error: (err as Error).message });
  scrapedGauge(
    { name: "esign_webhook_retries_pending", help: "Webhook deliveries pending a retry (state pending, attempts > 0)" },
    () => db.webhookDelivery.count({ where: { state: DELIVERY_STATE.pending, attempts: { gt: 0 } } }),
    { onError: onError("esign_webhook_retries_pending") },
  );
  scrapedGauge(
    { name: "esign_webhook_subscriptions_disabled", help: "Webhook subscriptions currently disabled (not deleted)" },
    () => db.webhookSubscription.count({ where: { isActive: false, deletedAt: null } }),
    { onError: onError("esign_webhook_subscriptions_disabled") },
  );
}

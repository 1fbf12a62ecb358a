import { decryptSecret, type Keyring } from "@esign/db";
import type { Logger } from "@esign/logger";
import { signDelivery } from "@esign/webhook-verify";
import { buildEventBody, DELIVERY_STATE, scheduleAttempt, scheduleThrottledAttempt, subscriptionDisabledJobId, type DeliveryState } from "@esign/webhooks";
import type { DispatcherContext } from "../context";
import { loadAttempt, type AttemptRow } from "./attempt-rows";
import { holdBehindEarlier, isOrdered, releaseNext } from "./ordering";
import { recordAttempt, type RecordedAttempt } from "./record-attempt";
import type { SendResult, WebhookRequest } from "./send-webhook";

/** Stops a delivery that may no longer be attempted; only a pending one changes. */
async function stopDelivery(ctx: DispatcherContext, deliveryId: string, state: DeliveryState): Promise<void> {
  await ctx.db.webhookDelivery.updateMany({ where: { id: deliveryId, state: DELIVERY_STATE.pending }, data: { state, nextAttemptAt: null } });
}

/** An attempt that is to be made: the row it was decided on and the exact request. */
interface PreparedAttempt {
  row: AttemptRow;
  attempt: number;
  request: WebhookRequest;
  log: Logger;
  /** Set when its throttle turn is already reserved (a deferred attempt at its turn). */
  slotAt?: number;
}

/** An attempt asked for: the delivery's row, its number, and a throttle turn already reserved, if any. */
export interface AttemptItem {
  row: AttemptRow;
  attempt: number;
  slotAt?: number;
}

/**
 * A throttled attempt whose turn is at most this far away waits for it in this process (precise, no
 * queue latency); a later turn is a delayed job of its own, so no worker slot is held for it.
 */
const IN_PROCESS_WAIT_MS = 1000;

/**
 * A scheduled turn that comes this late (a backlog of due jobs, a stalled process) takes a new turn
 * instead of going at once: late turns going together would be a burst. Compared with the turn's
 * Redis time, so it assumes clocks within this of each other (NTP).
 */
const LATE_TURN_MS = 1000;

/**
 * What attempts made together share: an event's body is the same for all its subscriptions, and a
 * subscription's secret the same for all its events. Lives for one attemptDeliveries call only, so a
 * decrypted secret is held no longer than the attempts that use it.
 */
class PrepareMemo {
  private readonly bodies = new Map<string, string>();
  private readonly secrets = new Map<string, string>();

  constructor(private readonly encryptionKey: Keyring) {}

  body(eventId: string, row: AttemptRow): string {
    let body = this.bodies.get(eventId);
    if (body === undefined) {
      body = buildEventBody({ eventType: row.eventType, payload: row.payload, occurredAt: row.occurredAt });
      this.bodies.set(eventId, body);
    }
    return body;
  }

  secret(secretEnc: string): string {
    let secret = this.secrets.get(secretEnc);
    if (secret === undefined) {
      secret = decryptSecret(secretEnc, this.encryptionKey);
      this.secrets.set(secretEnc, secret);
    }
    return secret;
  }
}

/**
 * The secrets a delivery is signed with: during a rotation's overlap the previous one first, then the
 * current one (two `v1=` entries, so a receiver verifying with either passes); else the current one.
 */
function signingSecrets(memo: PrepareMemo, row: AttemptRow, now: Date): string[] {
  const current = memo.secret(row.secretEnc);
  if (row.previousSecretEnc === null || row.previousSecretExpiresAt === null || row.previousSecretExpiresAt <= now) return [current];
  return [memo.secret(row.previousSecretEnc), current];
}

/**
 * Decides whether attempt `attempt` of the delivery is to be made now and settles the cases where it
 * is not: an attempt number already in the log, or a delivery no longer pending, is skipped; a
 * deleted or disabled subscription, or a vanished event, stops the delivery.
 */
async function prepareAttempt(ctx: DispatcherContext, memo: PrepareMemo, { row, attempt, slotAt }: AttemptItem): Promise<PreparedAttempt | undefined> {
  const log = ctx.logger.child({ deliveryId: row.deliveryId, eventId: row.eventId, subscriptionId: row.subscriptionId, attempt });
  if (row.state !== DELIVERY_STATE.pending) return void log.debug("delivery not pending; attempt skipped", { state: row.state });
  if (attempt !== row.attempts + 1) {
    // A re-run of a recorded attempt (e.g. a stalled job whose worker died after committing): make
    // sure the attempt that is really next has its job, then stop.
    log.debug("attempt already recorded; skipped", { attempts: row.attempts });
    if (attempt <= row.attempts) {
      const delay = (row.nextAttemptAt?.getTime() ?? Date.now()) - Date.now();
      await scheduleAttempt(ctx.producer, row.deliveryId, row.attempts + 1, delay);
    }
    return undefined;
  }
  if (row.deletedAt) {
    await stopDelivery(ctx, row.deliveryId, DELIVERY_STATE.cancelled);
    return void log.info("subscription deleted; delivery cancelled");
  }
  if (!row.isActive) {
    await stopDelivery(ctx, row.deliveryId, DELIVERY_STATE.suspended);
    return void log.info("subscription disabled; delivery suspended");
  }
  const eventRowId = row.eventRowId;
  if (!eventRowId) {
    await stopDelivery(ctx, row.deliveryId, DELIVERY_STATE.cancelled);
    return void log.error("event of the delivery not found; delivery cancelled");
  }
  if (await holdBehindEarlier(ctx, row, attempt)) return void log.debug("ordered: held until the earlier event of its case file has ended");
  const body = memo.body(eventRowId, row);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Event-Id": eventRowId,
    "X-Event-Type": row.eventType,
  };
  // The secret is decrypted here and lives only for these attempts: job data carries ids only.
  headers["X-Event-Signature"] = signDelivery({ secret: signingSecrets(memo, row, new Date()), body, headers });
  return { row, attempt, request: { url: row.endpoint, body, headers }, log, ...(slotAt !== undefined ? { slotAt } : {}) };
}

/**
 * Logs what was recorded and schedules what follows it (the next rung, or the disabled notice).
 * Successes are logged by attemptDeliveries, in one line.
 */
async function followUp(ctx: DispatcherContext, prepared: PreparedAttempt, result: SendResult, recorded: RecordedAttempt): Promise<void> {
  const { log, row } = prepared;
  // Ordered: once this delivery has ended (it is no longer pending), the next of its case file goes.
  if (isOrdered(row) && recorded.kind !== "retry" && recorded.kind !== "duplicate") await releaseNext(ctx, row.subscriptionId, row.caseFileId);
  const outcome = { outcome: result.outcome, cause: result.cause, httpStatus: result.httpStatus, durationMs: result.durationMs };
  switch (recorded.kind) {
    case "duplicate":
      return void log.info("attempt recorded by another run; this one dropped", outcome);
    case "succeeded":
      return;
    case "stopped":
      return void log.info("attempt failed; delivery no longer pending", { ...outcome, state: recorded.state, detail: result.detail });
    case "retry":
      log.info("attempt failed; retry scheduled", { ...outcome, detail: result.detail, nextAttemptAt: recorded.nextAttemptAt.toISOString() });
      // After the commit: if this enqueue fails the job fails, and the sweeper finds the delivery
      // pending and overdue in PostgreSQL.
      await scheduleAttempt(ctx.producer, row.deliveryId, recorded.nextAttempt, recorded.nextAttemptAt.getTime() - Date.now());
      return;
    case "exhausted":
      log.warn("all attempts failed; delivery exhausted", {
        ...outcome,
        detail: result.detail,
        subscriptionDisabled: recorded.disabledAt !== null,
        suspended: recorded.suspended,
      });
      if (recorded.disabledAt) {
        await ctx.producer.enqueue(
          "notifications",
          "subscription-disabled",
          { subscriptionId: row.subscriptionId },
          { jobId: subscriptionDisabledJobId(row.subscriptionId, recorded.disabledAt) },
        );
      }
      return;
  }
}

/** A success of a batch, for its one log line. */
interface Delivered {
  eventId: string;
  deliveryId: string;
  subscriptionId: string;
  attempt: number;
  httpStatus: number | null;
  durationMs: number;
}

/**
 * Makes the given attempts together: the POSTs concurrently (WEBHOOK_CONCURRENCY bounds them across
 * the dispatcher), each event's records in one statement once its last POST has answered (at most
 * the contract's 200 ms + 1 s later; events answered in the same turn share the statement), then
 * each follow-up. An events/dispatch job's first attempts go this way; a retry is a batch of one.
 * Duplicates are harmless: two runs racing may both POST (at-least-once, same X-Event-Id) but only
 * one of them is recorded.
 */
export async function attemptDeliveries(ctx: DispatcherContext, items: readonly AttemptItem[]): Promise<void> {
  // One delivery that cannot be prepared (e.g. a secret that no longer decrypts) must not hold back
  // the others: they are made and recorded, then the job fails for it alone (its re-run finds only
  // that one still at attempt 0; the sweeper is the net behind that).
  const memo = new PrepareMemo(ctx.config.ENCRYPTION_KEYRING);
  const settled = await Promise.allSettled(items.map((item) => prepareAttempt(ctx, memo, item)));
  const failures = settled.flatMap((r, i) => (r.status === "rejected" ? [{ deliveryId: items[i]!.row.deliveryId, reason: r.reason as unknown }] : []));
  for (const f of failures) ctx.logger.error("attempt could not be prepared", { deliveryId: f.deliveryId, err: f.reason });
  const ready = settled.flatMap((r) => (r.status === "fulfilled" && r.value ? [r.value] : []));
  const { now: prepared, started } = await takeTurns(ctx, ready);
  const byEvent = new Map<string, PreparedAttempt[]>();
  for (const p of prepared) {
    const group = byEvent.get(p.row.eventId);
    if (group) group.push(p);
    else byEvent.set(p.row.eventId, [p]);
  }
  // An event whose record or follow-up fails does not stop the others; the job fails after them.
  const made = await Promise.allSettled([
    ...[...byEvent.values()].map((group) => makeAttempts(ctx, group)),
    // Throttled attempts, each made alone at its turn (or scheduled for it).
    ...started,
  ]);
  const delivered = made.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
  // One line for a batch's successful deliveries (a log line costs about as much CPU as a record
  // statement, bench/README.md); every failure has its own line with its cause.
  if (delivered.length > 1) ctx.logger.info("webhooks delivered", { deliveries: delivered });
  else if (delivered[0]) ctx.logger.info("webhook delivered", delivered[0]);
  const unrecorded = made.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  if (failures.length > 0)
    throw new Error(`${failures.length} of ${items.length} attempts could not be prepared (deliveries ${failures.map((f) => f.deliveryId).join(", ")})`);
  if (unrecorded.length > 0) throw unrecorded[0];
}

/**
 * Throttled subscriptions' attempts take a turn first, in the order given (an event's turn follows the
 * one before it). Each is started as soon as its turn is reserved, so the time spent reserving the
 * others does not push it late and bunch it with later turns: a turn due now or soon is made alone at
 * its turn in this process; a later one becomes a delayed job at its turn, and the delivery's
 * nextAttemptAt moves there so the sweeper does not take a waiting delivery for a lost one. Nothing
 * else about a waiting delivery changes: no attempt, no ladder step. Returns the attempts to make
 * together now (unthrottled) and the throttled ones already under way.
 */
async function takeTurns(ctx: DispatcherContext, prepared: readonly PreparedAttempt[]): Promise<{ now: PreparedAttempt[]; started: Promise<Delivered[]>[] }> {
  const now: PreparedAttempt[] = [];
  const started: Promise<Delivered[]>[] = [];
  for (const p of prepared) {
    const limit = p.row.maxPerSecond;
    if (limit === null) {
      now.push(p);
      continue;
    }
    if (p.slotAt !== undefined) {
      started.push(makeAttempts(ctx, [p]));
      continue;
    }
    const { slotAt, waitMs } = await ctx.throttle.reserve(p.row.subscriptionId, limit);
    if (waitMs <= IN_PROCESS_WAIT_MS) {
      started.push(new Promise((r) => setTimeout(r, waitMs)).then(() => makeAttempts(ctx, [p])));
      continue;
    }
    started.push(
      (async () => {
        await ctx.db.webhookDelivery.updateMany({
          where: { id: p.row.deliveryId, state: DELIVERY_STATE.pending, attempts: p.attempt - 1 },
          data: { nextAttemptAt: new Date(Date.now() + waitMs) },
        });
        await scheduleThrottledAttempt(ctx.producer, p.row.deliveryId, p.attempt, slotAt, waitMs);
        p.log.debug("throttled: attempt waits for its turn", { waitMs });
        return [];
      })(),
    );
  }
  return { now, started };
}

/** Makes one event's attempts and records them together; returns its successes. */
async function makeAttempts(ctx: DispatcherContext, prepared: readonly PreparedAttempt[]): Promise<Delivered[]> {
  const results = await Promise.all(prepared.map((p) => ctx.sender.send(p.request)));
  const now = new Date();
  const recorded = await Promise.all(
    prepared.map((p, i) =>
      recordAttempt(ctx.db, {
        deliveryId: p.row.deliveryId,
        eventId: p.row.eventId,
        subscriptionId: p.row.subscriptionId,
        attempt: p.attempt,
        result: results[i]!,
        now,
        ladderScale: ctx.config.WEBHOOK_LADDER_SCALE,
        // What this attempt was decided on: the record takes the one-statement path while it still holds.
        expected: { state: p.row.state, ladderStep: p.row.ladderStep },
      }),
    ),
  );
  await Promise.all(prepared.map((p, i) => followUp(ctx, p, results[i]!, recorded[i]!)));
  return prepared.flatMap((p, i) =>
    recorded[i]!.kind === "succeeded"
      ? [
          {
            eventId: p.row.eventId,
            deliveryId: p.row.deliveryId,
            subscriptionId: p.row.subscriptionId,
            attempt: p.attempt,
            httpStatus: results[i]!.httpStatus,
            durationMs: results[i]!.durationMs,
          },
        ]
      : [],
  );
}

/** One attempt of one delivery (the webhooks/deliver job: retries, redeliveries, sweeps). */
export async function attemptDelivery(ctx: DispatcherContext, deliveryId: string, attempt: number, slotAt?: number): Promise<void> {
  const row = await loadAttempt(ctx, deliveryId);
  if (!row) return void ctx.logger.warn("delivery not found", { deliveryId, attempt });
  const onTime = slotAt !== undefined && Date.now() - slotAt <= LATE_TURN_MS;
  await attemptDeliveries(ctx, [{ row, attempt, ...(onTime ? { slotAt } : {}) }]);
}

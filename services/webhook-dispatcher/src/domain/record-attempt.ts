import { randomUUID } from "node:crypto";
import { sqlPool, type Db } from "@esign/db";
import { counter } from "@esign/runtime";
import { DELIVERY_STATE, retryDelayMs } from "@esign/webhooks";
import type { SendResult } from "./send-webhook";

export interface AttemptToRecord {
  deliveryId: string;
  eventId: string;
  subscriptionId: string;
  attempt: number;
  result: SendResult;
  now: Date;
  ladderScale: number;
  /** The delivery as the attempt found it; when it still holds, the record is one statement. */
  expected?: { state: string; ladderStep: number };
}

export type RecordedAttempt =
  /** Someone else recorded this attempt number first (a duplicate job): nothing was written. */
  | { kind: "duplicate" }
  | { kind: "succeeded" }
  | { kind: "retry"; nextAttempt: number; nextAttemptAt: Date }
  /** The 36th failure: the subscription was disabled by this attempt when `disabledAt` is set. */
  | { kind: "exhausted"; disabledAt: Date | null; suspended: number }
  /** Failed while the delivery was no longer pending (subscription disabled or deleted meanwhile). */
  | { kind: "stopped"; state: string };

// Counted once an attempt is committed: a rolled-back or duplicate attempt is not an attempt.
const attemptsRecorded = counter({
  name: "esign_webhook_deliveries_total",
  help: "Webhook delivery attempts recorded, by outcome (success, failure) and cause",
  labelNames: ["outcome", "cause"] as const,
});
const subscriptionsDisabled = counter({
  name: "esign_webhook_subscriptions_disabled_total",
  help: "Subscriptions disabled by the retry ladder (a delivery's 36th failed attempt)",
});

interface LockedDelivery {
  state: string;
  attempts: number;
  ladderStep: number;
}

/**
 * Writes the attempt row and moves the delivery along its ladder in one transaction, under a row
 * lock on the delivery: two runs of the same attempt cannot both count. The 36th failure also
 * disables the subscription and suspends its other pending deliveries, in the same transaction.
 */
export async function recordAttempt(db: Db, input: AttemptToRecord): Promise<RecordedAttempt> {
  const recorded = await writeAttempt(db, input);
  if (recorded.kind !== "duplicate") attemptsRecorded.inc({ outcome: input.result.outcome, cause: input.result.cause });
  if (recorded.kind === "exhausted" && recorded.disabledAt) subscriptionsDisabled.inc();
  return recorded;
}

async function writeAttempt(db: Db, input: AttemptToRecord): Promise<RecordedAttempt> {
  return (await writeAttemptInOneStatement(db, input)) ?? writeAttemptLocked(db, input);
}

/**
 * The common cases - a success, or a failure with a retry to schedule - of a delivery still exactly
 * as the attempt read it (pending, attempts = attempt - 1, same ladder step): one autocommitted
 * statement whose UPDATE re-checks that state under the row lock and whose INSERT writes the
 * attempt only if the UPDATE matched. Same rows, same outcome as the locked transaction below, for
 * one round trip and no Prisma (which cost ~4 ms of CPU per attempt here, bench/README.md).
 * Returns undefined whenever the transaction must decide (row changed, ladder exhausted).
 */
async function writeAttemptInOneStatement(db: Db, input: AttemptToRecord): Promise<RecordedAttempt | undefined> {
  const { deliveryId, eventId, subscriptionId, attempt, result, now, expected } = input;
  if (!expected || expected.state !== DELIVERY_STATE.pending) return undefined;
  let outcome: RecordedAttempt;
  let state: string = DELIVERY_STATE.pending;
  let ladderStep = expected.ladderStep;
  let nextAttemptAt: Date | null = null;
  if (result.outcome === "success") {
    state = DELIVERY_STATE.succeeded;
    outcome = { kind: "succeeded" };
  } else {
    ladderStep += 1;
    const delay = retryDelayMs(ladderStep, input.ladderScale);
    if (delay === null) return undefined; // exhausted: disables the subscription, in the transaction
    nextAttemptAt = new Date(now.getTime() + delay);
    outcome = { kind: "retry", nextAttempt: attempt + 1, nextAttemptAt };
  }
  const { rowCount } = await sqlPool(db).query(
    `WITH moved AS (
       UPDATE "WebhookDelivery"
          SET state = $2, attempts = $3, "ladderStep" = $4, "lastAttemptAt" = $5, "nextAttemptAt" = $6, "updatedAt" = $5
        WHERE id = $1 AND state = $7 AND attempts = $3 - 1 AND "ladderStep" = $8
        RETURNING id)
     INSERT INTO "WebhookAttempt"
       (id, "deliveryId", "eventId", "subscriptionId", "attemptNumber", outcome, "httpStatus", cause, "durationMs", "nextAttemptAt", "createdAt")
     SELECT $9::uuid, moved.id, $10::uuid, $11::uuid, $3::int, $12::text, $13::int, $14::text, $15::int, $6::timestamptz, $5::timestamptz FROM moved`,
    [
      deliveryId,
      state,
      attempt,
      ladderStep,
      now,
      nextAttemptAt,
      DELIVERY_STATE.pending,
      expected.ladderStep,
      randomUUID(),
      eventId,
      subscriptionId,
      result.outcome,
      result.httpStatus,
      result.cause,
      result.durationMs,
    ],
  );
  return rowCount === 1 ? outcome : undefined;
}

function writeAttemptLocked(db: Db, input: AttemptToRecord): Promise<RecordedAttempt> {
  const { deliveryId, eventId, subscriptionId, attempt, result, now } = input;
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<LockedDelivery[]>`
      SELECT state, attempts, "ladderStep" FROM "WebhookDelivery" WHERE id = ${deliveryId}::uuid FOR UPDATE`;
    const row = locked[0];
    if (!row || row.attempts !== attempt - 1) return { kind: "duplicate" } as const;

    let outcome: RecordedAttempt;
    let state = row.state;
    let ladderStep = row.ladderStep;
    let nextAttemptAt: Date | null = null;
    if (result.outcome === "success") {
      state = DELIVERY_STATE.succeeded;
      outcome = { kind: "succeeded" };
    } else if (row.state !== DELIVERY_STATE.pending) {
      ladderStep += 1;
      outcome = { kind: "stopped", state: row.state };
    } else {
      ladderStep += 1;
      const delay = retryDelayMs(ladderStep, input.ladderScale);
      if (delay === null) {
        state = DELIVERY_STATE.exhausted;
        outcome = { kind: "exhausted", disabledAt: null, suspended: 0 };
      } else {
        nextAttemptAt = new Date(now.getTime() + delay);
        outcome = { kind: "retry", nextAttempt: attempt + 1, nextAttemptAt };
      }
    }

    await tx.webhookAttempt.create({
      data: {
        id: randomUUID(),
        deliveryId,
        eventId,
        subscriptionId,
        attemptNumber: attempt,
        outcome: result.outcome,
        httpStatus: result.httpStatus,
        cause: result.cause,
        durationMs: result.durationMs,
        nextAttemptAt,
        createdAt: now,
      },
    });
    await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: { state, attempts: attempt, ladderStep, lastAttemptAt: now, nextAttemptAt },
    });

    if (outcome.kind === "exhausted") {
      const disabled = await tx.webhookSubscription.updateMany({
        where: { id: subscriptionId, isActive: true },
        data: { isActive: false, disabledAt: now },
      });
      // SKIP LOCKED: a delivery locked right now is being recorded by another attempt; it finds the
      // subscription disabled on its next run. Waiting for it instead could deadlock with that
      // attempt if it is exhausting too.
      const suspended = await tx.$executeRaw`
        UPDATE "WebhookDelivery" SET state = ${DELIVERY_STATE.suspended}, "updatedAt" = ${now}
        WHERE id IN (
          SELECT id FROM "WebhookDelivery"
          WHERE "subscriptionId" = ${subscriptionId}::uuid AND state = ${DELIVERY_STATE.pending}
          FOR UPDATE SKIP LOCKED)`;
      outcome = { kind: "exhausted", disabledAt: disabled.count > 0 ? now : null, suspended };
    }
    return outcome;
  });
}

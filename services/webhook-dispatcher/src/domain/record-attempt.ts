import { randomUUID } from "node:crypto";
import { emitEvent, run, runOne, sqlPool, type Db } from "@esign/db";
import { subscriptionAlertEvent } from "@esign/schema";
import { counter } from "@esign/runtime";
import { DELIVERY_STATE, retryDelayMs } from "@esign/webhooks";
import { Coalescer } from "./coalesce";
import type { SendResult } from "./send-webhook";
import { disableSubscriptionSql, lockDeliverySql, recordAttemptsSql, suspendPendingDeliveriesSql, writeLockedAttemptSql } from "./record-attempt.sql";

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

const recorders = new WeakMap<Db, Coalescer<AttemptToRecord, RecordedAttempt | Error>>();

/**
 * Writes the attempt row and moves the delivery along its ladder, atomically: two runs of the same
 * attempt cannot both count. The 36th failure also disables the subscription and suspends its other
 * pending deliveries, in the same transaction. Calls made in the same event-loop turn (an event's
 * first attempts, concurrent retries) are recorded together by recordAttemptsSettled.
 */
export async function recordAttempt(db: Db, input: AttemptToRecord): Promise<RecordedAttempt> {
  let recorder = recorders.get(db);
  if (!recorder) {
    recorder = new Coalescer((inputs) => recordAttemptsSettled(db, inputs));
    recorders.set(db, recorder);
  }
  const recorded = await recorder.call(input);
  if (recorded instanceof Error) throw recorded;
  return recorded;
}

/**
 * Records several attempts: the common ones in a single statement, any other one in its own locked
 * transaction. Results are in the order of `inputs`; an attempt whose locked transaction fails comes
 * back as its error while the others keep their outcomes (a failed one-statement write fails them
 * all: nothing of the batch was written then).
 */
async function recordAttemptsSettled(db: Db, inputs: readonly AttemptToRecord[]): Promise<(RecordedAttempt | Error)[]> {
  const fast = await writeAttemptsInOneStatement(db, inputs);
  const recorded: (RecordedAttempt | Error)[] = [];
  for (const [i, input] of inputs.entries()) {
    let outcome: RecordedAttempt | Error;
    try {
      outcome = fast[i] ?? (await writeAttemptLocked(db, input));
    } catch (err) {
      outcome = err instanceof Error ? err : new Error(String(err));
    }
    if (!(outcome instanceof Error)) {
      if (outcome.kind !== "duplicate") attemptsRecorded.inc({ outcome: input.result.outcome, cause: input.result.cause });
      if (outcome.kind === "exhausted" && outcome.disabledAt) subscriptionsDisabled.inc();
    }
    recorded.push(outcome);
  }
  return recorded;
}

/** recordAttemptsSettled for callers that want all or nothing: the first failed attempt throws. */
export async function recordAttempts(db: Db, inputs: readonly AttemptToRecord[]): Promise<RecordedAttempt[]> {
  return (await recordAttemptsSettled(db, inputs)).map((r) => {
    if (r instanceof Error) throw r;
    return r;
  });
}

interface PlannedRow {
  index: number;
  outcome: RecordedAttempt;
  state: string;
  ladderStep: number;
  nextAttemptAt: Date | null;
}

/** What the one-statement path would write for an attempt, or undefined when the transaction must decide. */
function planFastRecord(input: AttemptToRecord, index: number): PlannedRow | undefined {
  const { attempt, result, now, expected } = input;
  if (!expected || expected.state !== DELIVERY_STATE.pending) return undefined;
  if (result.outcome === "success") {
    return { index, outcome: { kind: "succeeded" }, state: DELIVERY_STATE.succeeded, ladderStep: expected.ladderStep, nextAttemptAt: null };
  }
  const ladderStep = expected.ladderStep + 1;
  const delay = retryDelayMs(ladderStep, input.ladderScale);
  if (delay === null) return undefined; // exhausted: disables the subscription, in the transaction
  const nextAttemptAt = new Date(now.getTime() + delay);
  return { index, outcome: { kind: "retry", nextAttempt: attempt + 1, nextAttemptAt }, state: DELIVERY_STATE.pending, ladderStep, nextAttemptAt };
}

/**
 * The common cases - a success, or a failure with a retry to schedule - of deliveries still exactly
 * as their attempts read them (pending, attempts = attempt - 1, same ladder step): one autocommitted
 * statement whose UPDATE re-checks that state under the row locks and whose INSERT writes an attempt
 * only for the rows the UPDATE matched. Same rows, same outcome as the locked transaction below, for
 * one round trip however many attempts and no Prisma (which cost ~4 ms of CPU per attempt here,
 * bench/README.md). Returns, by input index, the outcomes it recorded; the others are left to the
 * transaction (row changed, ladder exhausted).
 */
async function writeAttemptsInOneStatement(db: Db, inputs: readonly AttemptToRecord[]): Promise<(RecordedAttempt | undefined)[]> {
  // A delivery twice in one batch (two copies of a job racing): only the first may take this path;
  // the UPDATE would match its row once but the INSERT would write both attempts.
  const seen = new Set<string>();
  const planned = inputs
    .map((input, i) => (seen.has(input.deliveryId) ? undefined : (seen.add(input.deliveryId), planFastRecord(input, i))))
    .filter((p): p is PlannedRow => p !== undefined);
  const outcomes: (RecordedAttempt | undefined)[] = inputs.map(() => undefined);
  if (planned.length === 0) return outcomes;
  const rows = await run(sqlPool(db), recordAttemptsSql, {
    pendingState: DELIVERY_STATE.pending,
    rows: planned.map((row) => {
      const input = inputs[row.index]!;
      return {
        deliveryId: input.deliveryId,
        state: row.state,
        attempt: input.attempt,
        ladderStep: row.ladderStep,
        expectedLadderStep: input.expected!.ladderStep,
        recordedAt: input.now,
        nextAttemptAt: row.nextAttemptAt,
        attemptId: randomUUID(),
        eventId: input.eventId,
        subscriptionId: input.subscriptionId,
        outcome: input.result.outcome,
        httpStatus: input.result.httpStatus,
        cause: input.result.cause,
        durationMs: input.result.durationMs,
      };
    }),
  });
  const written = new Set(rows.map((r) => r.deliveryId));
  for (const row of planned) if (written.has(inputs[row.index]!.deliveryId)) outcomes[row.index] = row.outcome;
  return outcomes;
}

function writeAttemptLocked(db: Db, input: AttemptToRecord): Promise<RecordedAttempt> {
  const { deliveryId, eventId, subscriptionId, attempt, result, now } = input;
  return db.$transaction(async (tx) => {
    const locked: LockedDelivery[] = await run(tx, lockDeliverySql, { deliveryId });
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

    await run(tx, writeLockedAttemptSql, {
      attemptId: randomUUID(),
      deliveryId,
      eventId,
      subscriptionId,
      attempt,
      outcome: result.outcome,
      httpStatus: result.httpStatus,
      cause: result.cause,
      durationMs: result.durationMs,
      nextAttemptAt,
      recordedAt: now,
      state,
      ladderStep,
    });

    if (outcome.kind === "exhausted") {
      const disabled = await runOne(tx, disableSubscriptionSql, { subscriptionId, now });
      // The operational event, in the same transaction: to the customer's other subscriptions holding it.
      if (disabled) {
        await emitEvent(
          tx,
          subscriptionAlertEvent(disabled.customerId, "webhook.subscription.disabled", {
            subscriptionId,
            endpoint: disabled.endpoint,
            failingSince: null,
            disabledAt: now.toISOString(),
          }),
        );
      }
      const suspended = (
        await run(tx, suspendPendingDeliveriesSql, { subscriptionId, suspended: DELIVERY_STATE.suspended, pending: DELIVERY_STATE.pending, now })
      ).length;
      outcome = { kind: "exhausted", disabledAt: disabled ? now : null, suspended };
    }
    return outcome;
  });
}

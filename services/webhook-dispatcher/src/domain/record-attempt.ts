import { randomUUID } from "node:crypto";
import type { Db } from "@esign/db";
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

import { defineStatement, qb, unnestRows } from "@esign/db";

/** One attempt to record on the fast path (see writeAttemptsInOneStatement). */
export interface FastAttemptRow {
  deliveryId: string;
  state: string;
  attempt: number;
  ladderStep: number;
  expectedLadderStep: number;
  recordedAt: Date;
  nextAttemptAt: Date | null;
  attemptId: string;
  eventId: string;
  subscriptionId: string;
  outcome: string;
  httpStatus: number | null;
  cause: string | null;
  durationMs: number;
}

const ID = "00000000-0000-4000-8000-000000000000";
const SAMPLE: { rows: FastAttemptRow[]; pendingState: string } = {
  rows: [
    {
      deliveryId: ID,
      state: "pending",
      attempt: 1,
      ladderStep: 1,
      expectedLadderStep: 0,
      recordedAt: new Date(0),
      nextAttemptAt: null,
      attemptId: ID,
      eventId: ID,
      subscriptionId: ID,
      outcome: "failure",
      httpStatus: 500,
      cause: "http_status",
      durationMs: 1,
    },
  ],
  pendingState: "pending",
};

/**
 * Deliveries still exactly as their attempts read them (pending, attempts = attempt - 1, same
 * ladder step) move on, and an attempt row is written for each of those only: one statement for a
 * batch of any size, its columns one array parameter each. Answers the deliveries written.
 *
 * Locks: the deliveries' rows, by the UPDATE, until the statement commits (it runs alone). A
 * delivery's other writer (a duplicate job, the locked path below) waits, then finds the attempt
 * count moved and writes nothing; a delivery changed before this statement is left out (no row
 * answered) and goes to the locked path.
 */
export const recordAttemptsSql = defineStatement(
  "record-delivery-attempts",
  SAMPLE,
  ({ rows, pendingState }) => {
    const column = <K extends keyof FastAttemptRow>(key: K) => rows.map((r) => r[key]);
    const input = unnestRows("i", {
      delivery_id: { values: column("deliveryId"), type: "uuid" },
      state: { values: column("state"), type: "text" },
      attempt: { values: column("attempt"), type: "int" },
      ladder_step: { values: column("ladderStep"), type: "int" },
      expected_ladder_step: { values: column("expectedLadderStep"), type: "int" },
      recorded_at: { values: column("recordedAt"), type: "timestamptz" },
      next_attempt_at: { values: column("nextAttemptAt"), type: "timestamptz" },
      attempt_id: { values: column("attemptId"), type: "uuid" },
      event_id: { values: column("eventId"), type: "uuid" },
      subscription_id: { values: column("subscriptionId"), type: "uuid" },
      outcome: { values: column("outcome"), type: "text" },
      http_status: { values: column("httpStatus"), type: "int" },
      cause: { values: column("cause"), type: "text" },
      duration_ms: { values: column("durationMs"), type: "int" },
    });
    return qb
      .with("input", (db) => db.selectFrom(input).selectAll())
      .with("moved", (db) =>
        db
          .updateTable("WebhookDelivery as d")
          .from("input as i")
          .set((eb) => ({
            state: eb.ref("i.state"),
            attempts: eb.ref("i.attempt"),
            ladderStep: eb.ref("i.ladder_step"),
            lastAttemptAt: eb.ref("i.recorded_at"),
            nextAttemptAt: eb.ref("i.next_attempt_at"),
            updatedAt: eb.ref("i.recorded_at"),
          }))
          .whereRef("d.id", "=", "i.delivery_id")
          .where("d.state", "=", pendingState)
          .where((eb) => eb("d.attempts", "=", eb(eb.ref("i.attempt"), "-", 1)))
          .whereRef("d.ladderStep", "=", "i.expected_ladder_step")
          .returning("d.id"),
      )
      .insertInto("WebhookAttempt")
      .columns(["id", "deliveryId", "eventId", "subscriptionId", "attemptNumber", "outcome", "httpStatus", "cause", "durationMs", "nextAttemptAt", "createdAt"])
      .expression((eb) =>
        eb
          .selectFrom("input as i")
          .innerJoin("moved", "moved.id", "i.delivery_id")
          .select([
            "i.attempt_id",
            "i.delivery_id",
            "i.event_id",
            "i.subscription_id",
            "i.attempt",
            "i.outcome",
            "i.http_status",
            "i.cause",
            "i.duration_ms",
            "i.next_attempt_at",
            "i.recorded_at",
          ]),
      )
      .returning("deliveryId");
  },
  // One text per batch size: the columns are one array parameter each.
  { reuse: "shape" },
);

/**
 * Locks one delivery and reads where it stands on its ladder: the locked path's first statement,
 * for an attempt the one-statement path could not write (the delivery changed, or the ladder ends).
 *
 * Locks: the WebhookDelivery row (FOR UPDATE) until the transaction ends: two runs of the same
 * attempt serialize here, and the second sees the first one's attempt count and writes nothing.
 */
export const lockDeliverySql = defineStatement(
  "lock-delivery",
  { deliveryId: ID },
  ({ deliveryId }) => qb.selectFrom("WebhookDelivery").select(["state", "attempts", "ladderStep"]).where("id", "=", deliveryId).forUpdate(),
  { reuse: "shape" },
);

/**
 * A disabled subscription's pending deliveries become suspended.
 *
 * Locks: the suspended deliveries' rows (FOR UPDATE SKIP LOCKED, then the UPDATE's) until the
 * transaction ends. SKIP LOCKED: a delivery locked right now is being recorded by another attempt;
 * it finds the subscription disabled on its next run. Waiting for it instead could deadlock with
 * that attempt if it is exhausting too.
 */
export const suspendPendingDeliveriesSql = defineStatement(
  "suspend-pending-deliveries",
  { subscriptionId: ID, suspended: "suspended", pending: "pending", now: new Date(0) },
  (a) =>
    qb
      .updateTable("WebhookDelivery")
      .set({ state: a.suspended, updatedAt: a.now })
      .where("id", "in", (eb) =>
        eb.selectFrom("WebhookDelivery").select("id").where("subscriptionId", "=", a.subscriptionId).where("state", "=", a.pending).forUpdate().skipLocked(),
      )
      .returning("id"),
  { reuse: "shape" },
);

/** One attempt as the locked path writes it: the attempt row and where its delivery now stands. */
export interface LockedAttemptRow {
  attemptId: string;
  deliveryId: string;
  eventId: string;
  subscriptionId: string;
  attempt: number;
  outcome: string;
  httpStatus: number | null;
  cause: string;
  durationMs: number;
  nextAttemptAt: Date | null;
  recordedAt: Date;
  state: string;
  ladderStep: number;
}

/**
 * Writes the attempt row and moves its delivery (state, attempts, ladder step, next attempt), in
 * one statement (a data-modifying CTE and the INSERT).
 *
 * Locks: nothing more: the caller holds the delivery's row lock (lockDeliverySql) and has checked
 * under it that this attempt number is the next one.
 */
export const writeLockedAttemptSql = defineStatement(
  "write-locked-delivery-attempt",
  {
    attemptId: ID,
    deliveryId: ID,
    eventId: ID,
    subscriptionId: ID,
    attempt: 1,
    outcome: "failure",
    httpStatus: 500 as number | null,
    cause: "http_status",
    durationMs: 1,
    nextAttemptAt: null as Date | null,
    recordedAt: new Date(0),
    state: "pending",
    ladderStep: 1,
  } satisfies LockedAttemptRow,
  (a: LockedAttemptRow) =>
    qb
      .with("moved", (db) =>
        db
          .updateTable("WebhookDelivery")
          .set({
            state: a.state,
            attempts: a.attempt,
            ladderStep: a.ladderStep,
            lastAttemptAt: a.recordedAt,
            nextAttemptAt: a.nextAttemptAt,
            updatedAt: a.recordedAt,
          })
          .where("id", "=", a.deliveryId),
      )
      .insertInto("WebhookAttempt")
      .values({
        id: a.attemptId,
        deliveryId: a.deliveryId,
        eventId: a.eventId,
        subscriptionId: a.subscriptionId,
        attemptNumber: a.attempt,
        outcome: a.outcome,
        httpStatus: a.httpStatus,
        cause: a.cause,
        durationMs: a.durationMs,
        nextAttemptAt: a.nextAttemptAt,
        createdAt: a.recordedAt,
      }),
  { reuse: "shape" },
);

/**
 * The retry ladder ended (a delivery's 36th failure): the subscription is disabled at `now`, unless
 * it already is. Answers its id when this statement disabled it.
 *
 * Locks: the WebhookSubscription row, by the UPDATE, until the transaction ends (after the
 * delivery's row lock). Two deliveries of the subscription exhausting at once serialize here, and
 * only the first one disables it (and has the mail sent).
 */
export const disableSubscriptionSql = defineStatement(
  "disable-exhausted-subscription",
  { subscriptionId: ID, now: new Date(0) },
  ({ subscriptionId, now }) =>
    qb
      .updateTable("WebhookSubscription")
      .set({ isActive: false, disabledAt: now, updatedAt: now })
      .where("id", "=", subscriptionId)
      .where("isActive", "=", true)
      .returning(["id", "customerId", "endpoint"]),
  { reuse: "shape" },
);

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

/** Locks one delivery and reads where it stands on its ladder. */
export const lockDeliverySql = defineStatement(
  "lock-delivery",
  { deliveryId: ID },
  ({ deliveryId }) => qb.selectFrom("WebhookDelivery").select(["state", "attempts", "ladderStep"]).where("id", "=", deliveryId).forUpdate(),
  { reuse: "shape" },
);

/**
 * A disabled subscription's pending deliveries become suspended. SKIP LOCKED: a delivery locked
 * right now is being recorded by another attempt; it finds the subscription disabled on its next
 * run. Waiting for it instead could deadlock with that attempt if it is exhausting too.
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

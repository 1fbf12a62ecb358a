import { defineStatement, qb, type DB, type ExpressionBuilder } from "@esign/db";

/*
 * Ordered subscriptions (opt-in): the events of one case file go out in event order (Event.seq). A
 * delivery whose case file still has an earlier delivery pending is held (pending, nextAttemptAt
 * null, no job) until that one has ended; then the next one is released.
 */

const ID = "00000000-0000-4000-8000-000000000000";

/** An earlier event of the same case file still pending for the subscription, than delivery `me` of event `eventId`. */
function earlierPending(eb: ExpressionBuilder<DB & { d: DB["WebhookDelivery"] }, "d">, eventId: string) {
  return eb.exists(
    eb
      .selectFrom("WebhookDelivery as p")
      .innerJoin("Event as pe", "pe.id", "p.eventId")
      .select("p.id")
      .whereRef("p.subscriptionId", "=", "d.subscriptionId")
      .whereRef("p.caseFileId", "=", "d.caseFileId")
      .whereRef("p.id", "<>", "d.id")
      .where("p.state", "=", "pending")
      .where("pe.seq", "<", eb.selectFrom("Event as me").select("me.seq").where("me.id", "=", eventId))
      // The earlier delivery's record (an UPDATE of its row) and this hold take turns: a hold never
      // misses the release of an attempt that ends while it is being decided.
      .forShare("p"),
  );
}

/**
 * Holds the delivery when an earlier event of its case file is still pending for its subscription:
 * returns its id when it was held (the attempt is then not made), nothing when it may go. Only a
 * delivery still at this attempt is held.
 *
 * Locks: the delivery's row, for the statement.
 */
export const holdIfEarlierPendingSql = defineStatement(
  "hold-ordered-delivery",
  { deliveryId: ID, eventId: ID, attempts: 0, now: new Date(0) },
  ({ deliveryId, eventId, attempts, now }) =>
    qb
      .updateTable("WebhookDelivery as d")
      .set({ nextAttemptAt: null, updatedAt: now })
      .where("d.id", "=", deliveryId)
      .where("d.state", "=", "pending")
      .where("d.attempts", "=", attempts)
      .where((eb) => earlierPending(eb, eventId))
      .returning(["d.id"]),
  { reuse: "shape" },
);

/**
 * After a delivery of an ordered subscription has ended (succeeded, exhausted, stopped): the next
 * pending delivery of its case file, in event order, when it is held (a pending one with a time is
 * being made or waits on its own ladder already); made due now. Its attempt's job is then ensured by
 * the caller.
 *
 * Locks: that delivery's row, for the statement.
 */
export const releaseNextOfCaseFileSql = defineStatement(
  "release-next-ordered-delivery",
  { subscriptionId: ID, caseFileId: 1, now: new Date(0) },
  ({ subscriptionId, caseFileId, now }) =>
    qb
      .updateTable("WebhookDelivery")
      .set({ nextAttemptAt: now, updatedAt: now })
      .where("id", "=", (eb) =>
        eb
          .selectFrom("WebhookDelivery as n")
          .innerJoin("Event as ne", "ne.id", "n.eventId")
          .select("n.id")
          .where("n.subscriptionId", "=", subscriptionId)
          .where("n.caseFileId", "=", caseFileId)
          .where("n.state", "=", "pending")
          .orderBy("ne.seq")
          .limit(1),
      )
      .where("nextAttemptAt", "is", null)
      .returning((eb) => [eb.cast<string>("id", "text").as("id"), "attempts"]),
  { reuse: "shape" },
);

/**
 * For the sweeper: held deliveries (pending, no time, ordered subscription) whose case file has no
 * earlier delivery pending any more: a release that was lost (a crash between an attempt's record
 * and its follow-up).
 *
 * Locks: nothing: the release that follows re-checks.
 */
export const orphanedHeldDeliveriesSql = defineStatement(
  "orphaned-held-deliveries",
  { limit: 500 },
  ({ limit }) =>
    qb
      .selectFrom("WebhookDelivery as d")
      .innerJoin("WebhookSubscription as s", "s.id", "d.subscriptionId")
      .select(["d.subscriptionId", "d.caseFileId"])
      .where("d.state", "=", "pending")
      .where("d.nextAttemptAt", "is", null)
      .where("s.ordered", "=", true)
      .where("s.isActive", "=", true)
      .where("d.caseFileId", "is not", null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("WebhookDelivery as p")
              .select("p.id")
              .whereRef("p.subscriptionId", "=", "d.subscriptionId")
              .whereRef("p.caseFileId", "=", "d.caseFileId")
              .where("p.state", "=", "pending")
              .where("p.nextAttemptAt", "is not", null),
          ),
        ),
      )
      .distinct()
      .limit(limit),
  { reuse: "shape" },
);

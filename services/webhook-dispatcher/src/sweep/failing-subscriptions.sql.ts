import { defineStatement, qb } from "@esign/db";

/*
 * The `webhook.subscription.failing` warning (warn-failing.ts): a subscription whose deliveries have
 * failed for WEBHOOK_FAILING_AFTER_MS with no success since, warned once per failing streak, before
 * the ladder's last retry disables it.
 */

const ID = "00000000-0000-4000-8000-000000000000";

/**
 * Active subscriptions with a delivery pending after a failure, with the start of their failing streak:
 * the first failed attempt after their last success (null when none).
 *
 * Locks: nothing: the mark that follows re-checks.
 */
export const failingSubscriptionsSql = defineStatement(
  "failing-webhook-subscriptions",
  { limit: 500, epoch: new Date(0) },
  ({ limit, epoch }) =>
    qb
      .selectFrom("WebhookSubscription as s")
      .select((eb) => [
        "s.id",
        "s.customerId",
        "s.endpoint",
        "s.failingNotifiedAt",
        eb
          .selectFrom("WebhookAttempt as a")
          .select((f) => f.fn.min<Date>("a.createdAt").as("since"))
          .whereRef("a.subscriptionId", "=", "s.id")
          .where("a.outcome", "=", "failure")
          .where(
            "a.createdAt",
            ">",
            eb.fn.coalesce(
              eb
                .selectFrom("WebhookAttempt as b")
                .select((f) => f.fn.max<Date>("b.createdAt").as("last"))
                .whereRef("b.subscriptionId", "=", "s.id")
                .where("b.outcome", "=", "success"),
              eb.val(epoch),
            ),
          )
          .as("failingSince"),
      ])
      .where("s.isActive", "=", true)
      .where("s.deletedAt", "is", null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("WebhookDelivery as d")
            .select("d.id")
            .whereRef("d.subscriptionId", "=", "s.id")
            .where("d.state", "=", "pending")
            .where("d.ladderStep", ">", 0),
        ),
      )
      .limit(limit),
  { reuse: "shape" },
);

/**
 * Records the warning for the streak that began at `since`, unless it was given already (a warning at
 * or after the streak's start) or the subscription is no longer active. Returns the row when this
 * call is the one that warns.
 *
 * Locks: the subscription's row, until the transaction (which also writes the event) ends.
 */
export const markFailingWarnedSql = defineStatement(
  "mark-webhook-subscription-failing",
  { subscriptionId: ID, since: new Date(0), now: new Date(0) },
  ({ subscriptionId, since, now }) =>
    qb
      .updateTable("WebhookSubscription")
      .set({ failingNotifiedAt: now, updatedAt: now })
      .where("id", "=", subscriptionId)
      .where("isActive", "=", true)
      .where((eb) => eb.or([eb("failingNotifiedAt", "is", null), eb("failingNotifiedAt", "<", since)]))
      .returning(["id", "customerId", "endpoint"]),
  { reuse: "shape" },
);

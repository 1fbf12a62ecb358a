import { defineStatement, qb } from "@esign/db";

/*
 * The checks of the subscription limits (active-limit.ts). Both run under the customer's advisory
 * lock (lockCustomerSubscriptions), which every create or change of a subscription takes first:
 * that lock, not these statements, keeps two requests from passing the same check.
 */

const ID = "00000000-0000-4000-8000-000000000000";

/**
 * How many active, undeleted subscriptions the customer has (as an integer: a count is a bigint).
 *
 * Locks: nothing (see above: the customer's advisory lock is held).
 */
export const countActiveSubscriptionsSql = defineStatement(
  "count-active-subscriptions",
  { customerId: 1 },
  ({ customerId }) =>
    qb
      .selectFrom("WebhookSubscription")
      .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("active"))
      .where("customerId", "=", customerId)
      .where("isActive", "=", true)
      .where("deletedAt", "is", null),
  { reuse: "shape" },
);

/**
 * An undeleted subscription of the customer to this endpoint other than `except` (the one being
 * edited), if any.
 *
 * Locks: nothing (see above: the customer's advisory lock is held).
 */
export const subscriptionAtEndpointSql = defineStatement(
  "subscription-at-endpoint",
  { customerId: 1, endpoint: "https://example.com/hook", except: ID as string | undefined },
  ({ customerId, endpoint, except }) =>
    qb
      .selectFrom("WebhookSubscription")
      .select("id")
      .where("customerId", "=", customerId)
      .where("endpoint", "=", endpoint)
      .where("deletedAt", "is", null)
      .$if(except !== undefined, (q) => q.where("id", "<>", except!))
      .limit(1),
  { reuse: "shape" },
);

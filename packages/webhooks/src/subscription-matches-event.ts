import type { DB, ExpressionBuilder, Expression, SqlBool } from "@esign/db";

/** What the match reads of an event (a row of "Event", or of a CTE returning these columns). */
type EventColumns = Pick<DB["Event"], "customerId" | "eventType" | "targetSubscriptionId">;

/**
 * When subscription `s` gets event `e` (a query's aliases): one of the customer's active, undeleted
 * subscriptions holding the event type - events of every user of the account - or, for a test
 * event, only its target. The dispatcher's fan-out inserts deliveries by it; the outbox relay asks it
 * before dispatching.
 */
export function subscriptionMatchesEvent(eb: ExpressionBuilder<{ s: DB["WebhookSubscription"]; e: EventColumns }, "s" | "e">): Expression<SqlBool> {
  return eb.and([
    eb("s.customerId", "=", eb.ref("e.customerId")),
    eb("s.isActive", "=", eb.lit(true)),
    eb("s.deletedAt", "is", null),
    eb
      .case()
      .when("e.targetSubscriptionId", "is not", null)
      .then(eb("s.id", "=", eb.ref("e.targetSubscriptionId")))
      .else(eb(eb.ref("e.eventType"), "=", eb.fn.any("s.eventTypes")))
      .end(),
  ]);
}

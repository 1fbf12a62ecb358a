import { insertEvent, type Db } from "@esign/db";
import { TEST_EVENT_TYPE } from "@esign/schema";
import { SubscriptionNotFoundError } from "./errors";

/** The text payload of the test event (the spec: "The test event carries a text string"). */
export const testEventPayload = (subscriptionId: string): string =>
  `This is a test event for webhook subscription ${subscriptionId}.`;

/**
 * Writes a `webhook.subscription.test` event aimed at one subscription only; the dispatcher delivers
 * it like any event (signed, on the ladder). Throws SubscriptionNotFoundError when the subscription
 * is not the customer's or was deleted. Returns the event id (the X-Event-Id of the delivery).
 */
export async function createTestEvent(db: Db, customerId: number, subscriptionId: string): Promise<string> {
  return db.$transaction(async (tx) => {
    const found = await tx.webhookSubscription.count({ where: { id: subscriptionId, customerId, deletedAt: null } });
    if (found === 0) throw new SubscriptionNotFoundError(subscriptionId);
    return insertEvent(tx, {
      customerId,
      topic: "webhook",
      eventType: TEST_EVENT_TYPE,
      payload: testEventPayload(subscriptionId),
      targetSubscriptionId: subscriptionId,
    });
  });
}

import { emitEvent, type Db } from "@esign/db";
import { testEvent } from "@esign/schema";
import { SubscriptionNotFoundError } from "./errors";

/** The text payload of the test event (the spec: "The test event carries a text string"). */
export const testEventPayload = (subscriptionId?: string): string =>
  subscriptionId ? `This is a test event for webhook subscription ${subscriptionId}.` : "This is a test event.";

/**
 * Writes a `webhook.subscription.test` event aimed at one subscription only; the dispatcher delivers
 * it like any event (signed, on the ladder). Throws SubscriptionNotFoundError when the subscription
 * is not the customer's or was deleted. Returns the event id (the X-Event-Id of the delivery).
 */
export async function createTestEvent(db: Db, customerId: number, subscriptionId: string): Promise<string> {
  return db.$transaction(async (tx) => {
    const found = await tx.webhookSubscription.count({ where: { id: subscriptionId, customerId, deletedAt: null } });
    if (found === 0) throw new SubscriptionNotFoundError(subscriptionId);
    return emitEvent(tx, testEvent(customerId, testEventPayload(subscriptionId), subscriptionId));
  });
}

/**
 * Penneo's account-wide test (`POST /webhook/api/v1/subscriptions/test`): one event, aimed at no
 * subscription in particular, so the relay fans it out like any event to every active
 * subscription of the customer whose eventTypes include `webhook.subscription.test`.
 */
export async function createAccountTestEvent(db: Db, customerId: number): Promise<string> {
  return db.$transaction((tx) => emitEvent(tx, testEvent(customerId, testEventPayload())));
}

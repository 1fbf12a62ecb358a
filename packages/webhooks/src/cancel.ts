import type { Db } from "@esign/db";
import { DELIVERY_STATE } from "./delivery-states";

/**
 * Call after deleting a subscription: its pending and suspended deliveries become cancelled. Jobs
 * still queued for them find the state changed and stop without sending.
 */
export async function cancelSubscriptionDeliveries(db: Db, subscriptionId: string): Promise<number> {
  const { count } = await db.webhookDelivery.updateMany({
    where: { subscriptionId, state: { in: [DELIVERY_STATE.pending, DELIVERY_STATE.suspended] } },
    data: { state: DELIVERY_STATE.cancelled, nextAttemptAt: null },
  });
  return count;
}

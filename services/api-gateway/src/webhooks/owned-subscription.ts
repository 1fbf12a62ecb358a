import type { Db, WebhookSubscription } from "@esign/db";
import { AppError } from "@esign/errors";

export const subscriptionNotFound = () => new AppError("not_found", "Subscription not found");

/**
 * Another customer's subscription, a deleted one and a malformed id all answer the same 404, so that
 * ids of other customers cannot be probed.
 */
export async function ownedSubscription(db: Db, customerId: number, id: string): Promise<WebhookSubscription> {
  const sub = await db.webhookSubscription.findFirst({ where: { id, customerId, deletedAt: null } });
  if (!sub) throw subscriptionNotFound();
  return sub;
}

export function requireActive(sub: WebhookSubscription, action: string): void {
  if (!sub.isActive) {
    throw new AppError("conflict", `Subscription is disabled; re-enable it (PUT with "isActive": true) before ${action}`);
  }
}

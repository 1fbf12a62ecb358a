import { decryptSecret, type WebhookSubscription } from "@esign/db";
import type { EventType } from "@esign/schema";
import type { SubscriptionView } from "./subscription-schemas";

/** The contract's subscription object. The secret is stored encrypted and shown on every read (spec). */
export function presentSubscription(sub: WebhookSubscription, encryptionKey: string): SubscriptionView {
  return {
    customerId: sub.customerId,
    id: sub.id,
    isActive: sub.isActive,
    secret: decryptSecret(sub.secretEnc, encryptionKey),
    // Written only through the subscription schemas, which accept catalog event types alone.
    eventTypes: sub.eventTypes as EventType[],
    endpoint: sub.endpoint,
    createdAt: sub.createdAt.toISOString(),
    updatedAt: sub.updatedAt.toISOString(),
  };
}

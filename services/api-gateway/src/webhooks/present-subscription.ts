import { decryptSecret, type Keyring, type WebhookSubscription } from "@esign/db";
import type { EventType } from "@esign/schema";
import type { SubscriptionView } from "./subscription-schemas";

/** The contract's subscription object. The secret is stored encrypted and shown on every read (spec). */
export function presentSubscription(sub: WebhookSubscription, encryptionKey: Keyring, now = new Date()): SubscriptionView {
  const overlapEnds =
    sub.previousSecretEnc !== null && sub.previousSecretExpiresAt !== null && sub.previousSecretExpiresAt > now ? sub.previousSecretExpiresAt : null;
  return {
    customerId: sub.customerId,
    id: sub.id,
    isActive: sub.isActive,
    secret: decryptSecret(sub.secretEnc, encryptionKey),
    // Written only through the subscription schemas, which accept catalog event types alone.
    eventTypes: sub.eventTypes as EventType[],
    endpoint: sub.endpoint,
    maxPerSecond: sub.maxPerSecond,
    ordered: sub.ordered,
    // An overlap that has ended signs with nothing more, whatever the row still holds.
    previousSecretExpiresAt: overlapEnds?.toISOString() ?? null,
    createdAt: sub.createdAt.toISOString(),
    updatedAt: sub.updatedAt.toISOString(),
  };
}

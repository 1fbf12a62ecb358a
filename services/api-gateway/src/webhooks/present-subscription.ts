import { decryptSecret, type WebhookSubscription } from "@esign/db";

/** The contract's subscription object. The secret is stored encrypted and shown on every read (spec). */
export function presentSubscription(sub: WebhookSubscription, encryptionKey: string) {
  return {
    customerId: sub.customerId,
    id: sub.id,
    isActive: sub.isActive,
    secret: decryptSecret(sub.secretEnc, encryptionKey),
    eventTypes: sub.eventTypes,
    endpoint: sub.endpoint,
    createdAt: sub.createdAt.toISOString(),
    updatedAt: sub.updatedAt.toISOString(),
  };
}

import { defineStatement, qb } from "@esign/db";

/*
 * Secret rotation (secret-rotation-route.ts). Each is one UPDATE, so the old secret it keeps is the
 * one the row held at that moment even when two rotations race: the second keeps the first's new
 * secret as its previous one, and no secret that was never shown is ever signed with.
 */

const ID = "00000000-0000-4000-8000-000000000000";

/**
 * The current secret becomes the previous one (kept until `previousSecretExpiresAt`; with a null
 * expiry it is dropped at once) and `secretEnc` the new one. Returns the row's id, or nothing when the
 * subscription is not the customer's or is deleted.
 *
 * Locks: the subscription's row, for the statement.
 */
export const rotateSecretSql = defineStatement(
  "rotate-subscription-secret",
  { id: ID, customerId: 1, secretEnc: "enc", previousSecretExpiresAt: new Date(0) as Date | null, now: new Date(0) },
  ({ id, customerId, secretEnc, previousSecretExpiresAt, now }) =>
    qb
      .updateTable("WebhookSubscription")
      .set((eb) => ({
        previousSecretEnc: previousSecretExpiresAt === null ? null : eb.ref("secretEnc"),
        previousSecretExpiresAt,
        secretEnc,
        updatedAt: now,
      }))
      .where("id", "=", id)
      .where("customerId", "=", customerId)
      .where("deletedAt", "is", null)
      .returning(["id"]),
);

/**
 * Drops the previous secret now: deliveries are signed with the current one only.
 *
 * Locks: the subscription's row, for the statement.
 */
export const revokePreviousSecretSql = defineStatement(
  "revoke-previous-subscription-secret",
  { id: ID, customerId: 1, now: new Date(0) },
  ({ id, customerId, now }) =>
    qb
      .updateTable("WebhookSubscription")
      .set({ previousSecretEnc: null, previousSecretExpiresAt: null, updatedAt: now })
      .where("id", "=", id)
      .where("customerId", "=", customerId)
      .where("deletedAt", "is", null)
      .returning(["id"]),
);

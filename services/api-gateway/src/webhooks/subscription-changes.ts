import { randomUUID } from "node:crypto";
import { encryptSecret, type Keyring, type Db, type Prisma, type WebhookSubscription } from "@esign/db";
import { newSubscriptionSecret } from "@esign/webhooks";
import { assertActiveSlotFree, assertEndpointFree, lockCustomerSubscriptions } from "./active-limit";
import { subscriptionNotFound } from "./owned-subscription";
import type { TSubscriptionCreate, TSubscriptionUpdate } from "./subscription-schemas";

export interface Actor {
  customerId: number;
  userId: number;
}

/**
 * Inserts a new subscription (active unless `isActive: false`) if the customer has a free active
 * slot and no other subscription to the same endpoint (else 409).
 */
export async function createSubscription(
  db: Db,
  actor: Actor,
  input: TSubscriptionCreate,
  encryptionKey: Keyring,
): Promise<{ sub: WebhookSubscription; secret: string }> {
  const secret = newSubscriptionSecret();
  const sub = await db.$transaction(async (tx) => {
    await lockCustomerSubscriptions(tx, actor.customerId);
    await assertEndpointFree(tx, actor.customerId, input.endpoint);
    if (input.isActive) await assertActiveSlotFree(tx, actor.customerId);
    const now = new Date();
    return tx.webhookSubscription.create({
      data: {
        id: randomUUID(),
        customerId: actor.customerId,
        createdByUserId: actor.userId,
        endpoint: input.endpoint,
        eventTypes: input.eventTypes,
        secretEnc: encryptSecret(secret, encryptionKey),
        maxPerSecond: input.maxPerSecond,
        ordered: input.ordered,
        // Made disabled by its customer: nothing is owed, as for a disable through PUT.
        ...(input.isActive ? {} : { isActive: false, disabledAt: now, disabledNotifiedAt: now }),
      },
    });
  });
  return { sub, secret };
}

function changesFor(current: WebhookSubscription, input: TSubscriptionUpdate, now: Date): Prisma.WebhookSubscriptionUpdateManyMutationInput {
  const data: Prisma.WebhookSubscriptionUpdateManyMutationInput = {};
  if (input.endpoint !== undefined) data.endpoint = input.endpoint;
  if (input.eventTypes !== undefined) data.eventTypes = input.eventTypes;
  if (input.maxPerSecond !== undefined) data.maxPerSecond = input.maxPerSecond;
  if (input.ordered !== undefined) data.ordered = input.ordered;
  if (input.isActive === true && !current.isActive) {
    // A later automatic disable must owe its emails again, so both marks are cleared.
    Object.assign(data, { isActive: true, disabledAt: null, disabledNotifiedAt: null });
  } else if (input.isActive === false && current.isActive) {
    // Disabled by the customer: no "subscription disabled" email is owed, so it counts as notified.
    Object.assign(data, { isActive: false, disabledAt: now, disabledNotifiedAt: now });
  }
  return data;
}

/**
 * Applies an edit. Re-enabling takes the customer's lock and needs a free active slot (else 409);
 * so does moving to an endpoint another subscription of the customer has.
 * The write is conditional on the row not being deleted meanwhile, so a racing DELETE always wins.
 */
export async function updateSubscription(db: Db, actor: Actor, id: string, input: TSubscriptionUpdate): Promise<WebhookSubscription> {
  return db.$transaction(async (tx) => {
    if (input.isActive === true || input.endpoint !== undefined) await lockCustomerSubscriptions(tx, actor.customerId);
    const where = { id, customerId: actor.customerId, deletedAt: null };
    const current = await tx.webhookSubscription.findFirst({ where });
    if (!current) throw subscriptionNotFound();
    if (input.endpoint !== undefined) await assertEndpointFree(tx, actor.customerId, input.endpoint, id);
    if (input.isActive === true && !current.isActive) await assertActiveSlotFree(tx, actor.customerId);
    const { count } = await tx.webhookSubscription.updateMany({ where, data: changesFor(current, input, new Date()) });
    if (count === 0) throw subscriptionNotFound();
    return tx.webhookSubscription.findUniqueOrThrow({ where: { id } });
  });
}

/** Soft delete: the row stays for the delivery log; it no longer counts, shows or delivers. */
export async function softDeleteSubscription(db: Db, actor: Actor, id: string): Promise<void> {
  const { count } = await db.webhookSubscription.updateMany({
    where: { id, customerId: actor.customerId, deletedAt: null },
    data: { deletedAt: new Date(), isActive: false },
  });
  if (count === 0) throw subscriptionNotFound();
}

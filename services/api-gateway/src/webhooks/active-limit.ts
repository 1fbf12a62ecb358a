import { advisoryXactLock, run, runOne, type Tx } from "@esign/db";
import { AppError } from "@esign/errors";
import { countActiveSubscriptionsSql, subscriptionAtEndpointSql } from "./active-limit.sql";

/** Spec, Limits: active webhook subscriptions per customer. */
export const MAX_ACTIVE_SUBSCRIPTIONS = 5;

// The two-key form of advisory locks lives apart from the one-key form the migrator uses; the first
// key names "webhook subscriptions of a customer" so other features can lock on customer ids too.
const LOCK_NAMESPACE = 7_301;

/**
 * Serialises "count active, then activate" per customer across requests and replicas. Without it two
 * parallel requests could both count 4 and both insert. Released when the transaction ends.
 */
export async function lockCustomerSubscriptions(tx: Tx, customerId: number): Promise<void> {
  await run(tx, advisoryXactLock, { namespace: LOCK_NAMESPACE, key: customerId });
}

/** Call inside the transaction that holds lockCustomerSubscriptions, right before activating one. */
export async function assertActiveSlotFree(tx: Tx, customerId: number): Promise<void> {
  const active = (await runOne(tx, countActiveSubscriptionsSql, { customerId }))?.active ?? 0;
  if (active >= MAX_ACTIVE_SUBSCRIPTIONS) {
    throw new AppError("conflict", `A customer may have at most ${MAX_ACTIVE_SUBSCRIPTIONS} active webhook subscriptions; disable or delete one first`);
  }
}

/**
 * Penneo's Postman collection: "Creating a second subscription with the same endpoint URL on the
 * same account returns 409 Conflict". Call under lockCustomerSubscriptions; `except` is the
 * subscription being edited.
 */
export async function assertEndpointFree(tx: Tx, customerId: number, endpoint: string, except?: string): Promise<void> {
  const taken = await runOne(tx, subscriptionAtEndpointSql, { customerId, endpoint, except });
  if (taken) throw new AppError("conflict", "This account already has a subscription to this endpoint; update that one instead");
}

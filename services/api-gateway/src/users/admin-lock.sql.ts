import { advisoryXactLock, run, type Tx } from "@esign/db";

// Namespace of this lock (first key of pg_advisory_xact_lock(int, int)): a customer's administrators.
const ADMINS_LOCK = 0x61646d6e; // "admn"

/**
 * Serializes the changes that could leave a customer without an active administrator (demote,
 * disable): two admins demoting each other at once run one after the other, and the second sees the
 * first's change. Held to the end of the transaction.
 */
export async function lockCustomerAdmins(tx: Tx, customerId: number): Promise<void> {
  await run(tx, advisoryXactLock, { namespace: ADMINS_LOCK, key: customerId });
}

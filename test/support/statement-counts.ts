import { statementCounts } from "@esign/db";

/**
 * Runs `fn` and answers its result with the PostgreSQL round trips and transactions it sent on the
 * pools given to `countStatements` (@esign/db), for tests that hold a code path to its count.
 */
export async function countedStatements<T>(fn: () => Promise<T>): Promise<{ result: T; roundTrips: number; transactions: number }> {
  const before = { ...statementCounts() };
  const result = await fn();
  const after = statementCounts();
  return { result, roundTrips: after.roundTrips - before.roundTrips, transactions: after.transactions - before.transactions };
}

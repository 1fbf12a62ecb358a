import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { countStatements, createPrisma, sqlPool, statementCounts, type Db } from "@esign/db";
import { TEST_ENCRYPTION_KEY } from "./api";
import { createWorld } from "./webhook-world";

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

/** A database of a test's own whose pool counts its round trips (countStatements), with one customer. */
export interface CountedDatabase {
  db: Db;
  customer: CustomerCredentials;
  close(): Promise<void>;
}

export async function openCountedDatabase(name: string, customerName: string): Promise<CountedDatabase> {
  const world = await createWorld(name);
  const db = createPrisma(world.databaseUrl, 2);
  countStatements(sqlPool(db));
  const customer = await createCustomer(db, { name: customerName }, TEST_ENCRYPTION_KEY);
  return {
    db,
    customer,
    async close() {
      await db.$disconnect();
      await world.close();
    },
  };
}

import { countStatements, createPrisma, ping, run, sqlPool, withSqlTransaction, type Db } from "../src";
import { countedStatements } from "../../../test/support/statement-counts";
import { createWorld, type World } from "../../../test/support/webhook-world";

// countStatements: the round trips and transactions the benchmark reads per case file and per
// delivery. Every query on the pool counts, Prisma's and typed SQL's; a BEGIN (Prisma's own, or
// withSqlTransaction's one-string opening) counts one transaction; a pool not given to it counts nothing.
let world: World;
let counted: Db;
let uncounted: Db;
beforeAll(async () => {
  world = await createWorld("statement_counts");
  counted = createPrisma(world.databaseUrl, 2);
  countStatements(sqlPool(counted));
  uncounted = createPrisma(world.databaseUrl, 2);
});
afterAll(async () => {
  await counted?.$disconnect();
  await uncounted?.$disconnect();
  await world?.close();
});

const delta = async (fn: () => Promise<unknown>) => {
  const { roundTrips, transactions } = await countedStatements(fn);
  return { roundTrips, transactions };
};

describe("countStatements", () => {
  it("counts each query on the pool as one round trip and each BEGIN as one transaction", async () => {
    await counted.customer.count(); // the pool's first connection (its connect is no query)
    expect(await delta(() => counted.customer.count())).toEqual({ roundTrips: 1, transactions: 0 });
    expect(await delta(() => run(sqlPool(counted), ping, {}))).toEqual({ roundTrips: 1, transactions: 0 });
    // BEGIN (one string with its opening statements), the statement, COMMIT.
    expect(await delta(() => withSqlTransaction(sqlPool(counted), (client) => run(client, ping, {})))).toEqual({ roundTrips: 3, transactions: 1 });
    // Prisma's interactive transaction: its BEGIN, the query, its COMMIT, whatever else it sends.
    const prisma = await delta(() => counted.$transaction((tx) => tx.customer.count()));
    expect(prisma.transactions).toBe(1);
    expect(prisma.roundTrips).toBeGreaterThanOrEqual(3);
  });

  it("counts nothing on a pool it was not given", async () => {
    expect(await delta(() => uncounted.$transaction((tx) => tx.customer.count()))).toEqual({ roundTrips: 0, transactions: 0 });
  });
});

import { randomUUID } from "node:crypto";
import { CompiledQuery } from "kysely";
import { Pool } from "pg";
import {
  advisoryXactLock,
  advisoryXactLockOpening,
  countStatements,
  firstRead,
  prepareStatements,
  run,
  statementCounts,
  withSqlTransaction,
  type Statement,
} from "../src";

/*
 * withSqlTransaction's firstRead: BEGIN, the opening (a lock) and a read with parameters in one round
 * trip, the read still prepared (issue 25: the notifier's message). Against a table of the test's own.
 */

let pool: Pool;
let other: Pool;
const table = `read_after_opening_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const LOCKS = 23;

/** A repeated (prepared) statement as defineStatement makes one; each test its own text, so its first use parses it. */
function countOf(tag: string): Statement<{ id: number }, { n: number }> {
  return {
    name: `count-${tag}`,
    sample: { id: 0 },
    compile: ({ id }) => CompiledQuery.raw(`SELECT count(*)::int AS n /* ${tag} */ FROM ${table} WHERE id = $1`, [id]),
    repeats: true,
  };
}

beforeAll(async () => {
  pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  prepareStatements(pool);
  countStatements(pool);
  other = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  await other.query(`CREATE TABLE ${table} (id int PRIMARY KEY)`);
  await other.query(`INSERT INTO ${table} VALUES (1)`);
});

afterAll(async () => {
  await other.query(`DROP TABLE IF EXISTS ${table}`);
  await Promise.all([pool.end(), other.end()]);
});

describe("withSqlTransaction's firstRead", () => {
  it("sends BEGIN, the opening's lock and the read with its parameters in one round trip, and hands fn the read's rows", async () => {
    const read = countOf("one-trip");
    for (let i = 0; i < 2; i++) {
      const before = { ...statementCounts() };
      const rows = await withSqlTransaction(pool, async (_client, first) => first, {
        idleTimeoutMs: 5_000,
        opening: advisoryXactLockOpening(LOCKS, `one-trip:${i}`),
        firstRead: firstRead(read, { id: 1 }),
      });
      expect(rows).toEqual([{ n: 1 }]);
      // The opening with the read, then COMMIT; one transaction counted.
      expect(statementCounts().roundTrips - before.roundTrips).toBe(2);
      expect(statementCounts().transactions - before.transactions).toBe(1);
    }
    // The second run used the prepared statement the first one parsed.
    const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%/* one-trip */%'");
    expect(rows).toEqual([{ n: 1 }]);
  });

  it("reads after the lock is granted: it sees what the lock's previous holder committed", async () => {
    const key = `snapshot:${process.pid}:${Date.now()}`;
    let release!: () => void;
    const mayCommit = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const hasLock = new Promise<void>((resolve) => (locked = resolve));
    const holder = withSqlTransaction(other, async (client) => {
      await run(client, advisoryXactLock, { namespace: LOCKS, key });
      await client.query(`INSERT INTO ${table} VALUES (2)`);
      locked();
      await mayCommit;
    });
    await hasLock;
    const reader = withSqlTransaction(pool, async (_client, first) => first, {
      opening: advisoryXactLockOpening(LOCKS, key),
      firstRead: firstRead(countOf("snapshot"), { id: 2 }),
    });
    // The reader waits on the lock (not yet on its read) until the holder commits its row.
    await new Promise((r) => setTimeout(r, 300));
    release();
    await holder;
    expect(await reader).toEqual([{ n: 1 }]);
  });

  it("after an opening that fails, the connection runs the same read again (its prepared statement was made, or is made anew)", async () => {
    const read = countOf("after-failure");
    await expect(
      withSqlTransaction(pool, async () => "not reached", { opening: CompiledQuery.raw("SELECT 1 / 0 AS boom", []), firstRead: firstRead(read, { id: 1 }) }),
    ).rejects.toThrow("division by zero");
    const rows = await withSqlTransaction(pool, async (_client, first) => first, {
      opening: advisoryXactLockOpening(LOCKS, "after-failure"),
      firstRead: firstRead(read, { id: 1 }),
    });
    expect(rows).toEqual([{ n: 1 }]);
  });

  it("a failing read rejects and rolls the transaction back; the pool's connection stays usable", async () => {
    const broken: Statement<{ id: number }, { n: number }> = {
      name: "count-broken",
      sample: { id: 0 },
      compile: ({ id }) => CompiledQuery.raw(`SELECT count(*)::int AS n FROM ${table}_missing WHERE id = $1`, [id]),
      repeats: true,
    };
    await expect(withSqlTransaction(pool, async () => "not reached", { firstRead: firstRead(broken, { id: 1 }) })).rejects.toThrow("does not exist");
    expect((await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows).toEqual([{ n: 2 }]);
  });
});

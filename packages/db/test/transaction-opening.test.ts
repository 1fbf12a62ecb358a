import { Pool } from "pg";
import { advisoryXactLockOpening, isPasteableText, literalText, literalUuid, run, withSqlTransaction } from "../src";
import { advisoryXactLock } from "../src/typed-sql/locks.sql";

/*
 * Statements pasted into a transaction's opening (issue 25: sent with BEGIN, one round trip fewer per
 * notifier message and per creation job). The text of such a statement holds its values, so only a
 * safe alphabet is pasted; and the pasted lock must be the very lock the parameterised statement
 * takes, or a copy of a job running the other statement (an older replica in a rolling update)
 * would not wait for it.
 */

let pool: Pool;

beforeAll(() => {
  pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
});

afterAll(async () => {
  await pool.end();
});

describe("pasteable literals", () => {
  it("paste the keys and ids of the system and refuse anything that would need quoting", () => {
    for (const key of ["request:12:0b9c3c56-2a0e-4f57-9d7e-5d0f4c3a2b10", "reminder:7:3", "meeting:9:1764140000000", "a@b.dk/x_y.z"]) {
      expect(isPasteableText(key)).toBe(true);
    }
    for (const key of ["it's", "a b", "x;DROP TABLE", "back\\slash", 'quo"te', "line\nbreak", "é", "x".repeat(201)]) {
      expect(isPasteableText(key)).toBe(false);
      expect(() => literalText(key)).toThrow("not a pasteable text literal");
    }
    expect(() => literalUuid("0b9c3c56-2a0e-4f57-9d7e-5d0f4c3a2b10'; --")).toThrow("not a uuid");
  });

  it("the lock opening has no parameters, and is undefined for a key that cannot be pasted", () => {
    const opening = advisoryXactLockOpening(7, "request:1:abc");
    expect(opening?.parameters).toEqual([]);
    expect(opening?.sql).toContain("'request:1:abc'");
    expect(advisoryXactLockOpening(7, "it's")).toBeUndefined();
  });
});

describe("a lock taken in the opening", () => {
  it("is the lock advisoryXactLock takes: a second transaction asking for it with the parameterised statement waits until the first commits", async () => {
    const key = `request:${process.pid}:${Date.now()}`;
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstLocked!: () => void;
    const firstHasLock = new Promise<void>((resolve) => (firstLocked = resolve));

    const first = withSqlTransaction(
      pool,
      async () => {
        order.push("first locked");
        firstLocked();
        await firstMayCommit;
        order.push("first commits");
      },
      { opening: advisoryXactLockOpening(11, key) },
    );
    await firstHasLock;
    const second = withSqlTransaction(pool, async (client) => {
      await run(client, advisoryXactLock, { namespace: 11, key });
      order.push("second locked");
    });
    // The second asks while the first holds the lock: PostgreSQL shows it waiting for an advisory lock.
    await waitFor(async () => {
      const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
      return Number(rows[0]?.n) > 0;
    });
    expect(order).toEqual(["first locked"]);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(["first locked", "first commits", "second locked"]);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("generic plans for a transaction (genericPlans)", () => {
  // A statement whose custom plan always looks cheaper than its generic one: an array parameter.
  const byIds = { name: `generic_plan_test_${process.pid}`, text: "SELECT count(*)::int AS n FROM pg_class WHERE oid = ANY($1::oid[])" };
  const plansOf = async (client: { query: Pool["query"] }) =>
    (
      await client.query<{ generic_plans: string; custom_plans: string }>("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1", [
        byIds.name,
      ])
    ).rows[0];

  it("runs the transaction's prepared statements on their generic plan, and leaves the connection's setting as it was", async () => {
    const one = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    try {
      // Outside: a custom plan at every call, however many calls.
      for (let i = 0; i < 7; i++) await one.query({ ...byIds, values: [[1, 2]] });
      expect(await plansOf(one)).toEqual({ generic_plans: "0", custom_plans: "7" });
      await withSqlTransaction(
        one,
        async (client) => {
          for (let i = 0; i < 3; i++) await client.query({ ...byIds, values: [[1, 2]] });
        },
        { genericPlans: true },
      );
      expect(await plansOf(one)).toEqual({ generic_plans: "3", custom_plans: "7" });
      // SET LOCAL: gone with the commit.
      expect((await one.query<{ plan_cache_mode: string }>("SHOW plan_cache_mode")).rows[0]?.plan_cache_mode).toBe("auto");
      await one.query({ ...byIds, values: [[1, 2]] });
      expect(await plansOf(one)).toEqual({ generic_plans: "3", custom_plans: "8" });
    } finally {
      await one.end();
    }
  });
});

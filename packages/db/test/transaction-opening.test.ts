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

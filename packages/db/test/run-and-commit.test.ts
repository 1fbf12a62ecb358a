import { randomUUID } from "node:crypto";
import { CompiledQuery } from "kysely";
import { Pool, type PoolClient } from "pg";
import { prepareStatements, runAndCommit, withSqlTransaction, type Statement } from "../src";

/*
 * runAndCommit: a transaction's last statement with its COMMIT in one round trip (issue 25). Against
 * tables of the test's own (its statements are not the system's, so not in a *.sql.ts file).
 */

let pool: Pool;
const table = `run_and_commit_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const parent = `${table}_parent`;

/** A statement as defineStatement makes one: compiled text with parameters, repeated (prepared) or not. */
function statement<A>(name: string, repeats: boolean, compile: (args: A) => CompiledQuery<{ id: number }>): Statement<A, { id: number }> {
  return { name, sample: undefined as A, compile, repeats };
}

const insert = (repeats: boolean) =>
  statement<{ id: number; parentId: number }>(`insert-${repeats}`, repeats, ({ id, parentId }) =>
    CompiledQuery.raw(`INSERT INTO ${table} (id, parent_id) VALUES ($1, $2) RETURNING id`, [id, parentId]),
  );
const insertLiteral = statement<undefined>("insert-literal", false, () =>
  CompiledQuery.raw(`INSERT INTO ${table} (id, parent_id) VALUES (500, 1) RETURNING id`, []),
);

/** The queries fn's connection is sent (each one round trip), counted around pg's own query. */
function counting(client: PoolClient): string[] {
  const sent: string[] = [];
  const query = client.query;
  client.query = function (this: PoolClient, ...args: unknown[]) {
    const first = args[0];
    sent.push(typeof first === "string" ? first : String((first as { text?: unknown }).text));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as PoolClient["query"];
  return sent;
}

const ids = async () => (await pool.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);

beforeAll(async () => {
  pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  prepareStatements(pool);
  await pool.query(`CREATE TABLE ${parent} (id int PRIMARY KEY)`);
  // Deferred: a missing parent fails the COMMIT itself, not the INSERT.
  await pool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, parent_id int REFERENCES ${parent} (id) DEFERRABLE INITIALLY DEFERRED)`);
  await pool.query(`INSERT INTO ${parent} VALUES (1)`);
});

afterAll(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${table}, ${parent}`);
  await pool.end();
});

describe("runAndCommit", () => {
  it("commits the transaction with its last statement in one round trip, answering the statement's rows", async () => {
    let sent: string[] = [];
    const rows = await withSqlTransaction(pool, async (client) => {
      sent = counting(client);
      await client.query(`INSERT INTO ${table} (id, parent_id) VALUES (1, 1)`);
      return runAndCommit(client, insert(false), { id: 2, parentId: 1 });
    });
    expect(rows).toEqual([{ id: 2 }]);
    // No COMMIT of its own: it rode with the INSERT.
    expect(sent).toEqual([`INSERT INTO ${table} (id, parent_id) VALUES (1, 1)`, `INSERT INTO ${table} (id, parent_id) VALUES ($1, $2) RETURNING id`]);
    expect(await ids()).toEqual([1, 2]);
    // The connection is idle again, not inside a transaction: the next one opens its own.
    expect((await pool.query<{ now: Date }>("SELECT now() = statement_timestamp() AS now")).rows[0]?.now).toBe(true);
  });

  it("runs a prepared statement again on the same connection (parsed once), and one without parameters", async () => {
    for (const id of [10, 11, 12]) {
      await withSqlTransaction(pool, (client) => runAndCommit(client, insert(true), { id, parentId: 1 }));
    }
    const prepared = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO ${table}%'`);
    expect(prepared.rows[0]?.n).toBe("1");
    expect(await withSqlTransaction(pool, (client) => runAndCommit(client, insertLiteral, undefined))).toEqual([{ id: 500 }]);
    expect(await ids()).toEqual(expect.arrayContaining([10, 11, 12, 500]));
  });

  it("rolls everything back when the statement fails, and leaves the connection usable", async () => {
    const before = await ids();
    await expect(
      withSqlTransaction(pool, async (client) => {
        await client.query(`INSERT INTO ${table} (id, parent_id) VALUES (20, 1)`);
        return runAndCommit(client, insert(false), { id: 2, parentId: 1 }); // id 2 exists
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await ids()).toEqual(before);
    await withSqlTransaction(pool, (client) => runAndCommit(client, insert(false), { id: 21, parentId: 1 }));
    expect(await ids()).toContain(21);
  });

  it("rejects and keeps nothing when the COMMIT itself fails (a deferred constraint)", async () => {
    const before = await ids();
    await expect(
      withSqlTransaction(pool, async (client) => {
        await client.query(`INSERT INTO ${table} (id, parent_id) VALUES (30, 1)`);
        return runAndCommit(client, insert(false), { id: 31, parentId: 999 });
      }),
    ).rejects.toThrow(/foreign key/);
    expect(await ids()).toEqual(before);
    await withSqlTransaction(pool, (client) => runAndCommit(client, insert(false), { id: 32, parentId: 1 }));
    expect(await ids()).toContain(32);
  });
});

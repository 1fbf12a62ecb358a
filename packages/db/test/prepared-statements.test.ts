import { CompiledQuery } from "kysely";
import { Pool } from "pg";
import { prepareStatements, runCompiled } from "../src";

/*
 * Typed SQL whose text repeats runs as a prepared statement where the pool allows it
 * (DB_PREPARED_STATEMENTS, src/typed-sql/prepared.ts), once parsed per connection; a pool without it
 * (behind a transaction-mode PgBouncer before 1.21) sends every statement unnamed; and a prepared
 * statement whose plan a migration made stale is run unnamed instead of failing for good.
 */

const table = `prepared_probe_${process.pid}`;
let preparing: Pool;
let plain: Pool;

const prepared = async (pool: Pool): Promise<string[]> =>
  (await pool.query<{ name: string }>("SELECT name FROM pg_prepared_statements ORDER BY name")).rows.map((r) => r.name);

beforeAll(async () => {
  // One connection each: what a statement prepared on it leaves is visible to the next query.
  preparing = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  prepareStatements(preparing);
  plain = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  await plain.query(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (id int)`);
  await plain.query(`INSERT INTO ${table} VALUES (1), (2)`);
});

afterAll(async () => {
  await plain.query(`DROP TABLE IF EXISTS ${table}`);
  await Promise.all([preparing.end(), plain.end()]);
});

it("runs a repeated statement prepared, once per connection, and a statement built per call unnamed", async () => {
  const query = CompiledQuery.raw(`SELECT id FROM ${table} WHERE id >= $1 ORDER BY id`, [1]);
  expect(await runCompiled(preparing, query, true)).toEqual([{ id: 1 }, { id: 2 }]);
  expect(await runCompiled(preparing, query, true)).toEqual([{ id: 1 }, { id: 2 }]);
  const names = await prepared(preparing);
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(/^esign_[A-Za-z0-9_-]{32}$/);
  await runCompiled(preparing, CompiledQuery.raw(`SELECT count(*) FROM ${table}`, []), false);
  expect(await prepared(preparing)).toEqual(names);
});

it("sends everything unnamed on a pool without prepared statements", async () => {
  await runCompiled(plain, CompiledQuery.raw(`SELECT id FROM ${table} WHERE id >= $1`, [1]), true);
  expect(await prepared(plain)).toEqual([]);
});

it("runs a statement whose cached plan a migration made stale unnamed from then on, instead of failing", async () => {
  const star = CompiledQuery.raw(`SELECT * FROM ${table} WHERE id = $1`, [1]);
  expect(await runCompiled(preparing, star, true)).toEqual([{ id: 1 }]);
  await plain.query(`ALTER TABLE ${table} ADD COLUMN note text`);
  expect(await runCompiled(preparing, star, true)).toEqual([{ id: 1, note: null }]);
  expect(await runCompiled(preparing, star, true)).toEqual([{ id: 1, note: null }]);
});

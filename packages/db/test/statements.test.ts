import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { definedStatements } from "../src/typed-sql/statement";

/*
 * Every SQL statement of the system is a Kysely statement defined in a `*.sql.ts` file, with sample
 * arguments. Kysely checks tables and columns at compile time; this test has PostgreSQL parse and
 * plan each one (PREPARE) against the migrated schema, which also checks what the compiler cannot:
 * the fragments of expressions.ts, casts, operators, and every parameter's type being inferable.
 */

const ROOT = path.resolve(__dirname, "../../..");

function sqlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "generated" || entry.name === "test" ? [] : sqlFiles(full);
    return entry.name.endsWith(".sql.ts") ? [full] : [];
  });
}

const files = ["packages", "services"].flatMap((top) => sqlFiles(path.join(ROOT, top)));
for (const file of files) require(file);

describe("SQL statements", () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
  });

  it("are all found: every defineStatement call is in a *.sql.ts file", () => {
    const calls = files.map((f) => readFileSync(f, "utf8").match(/defineStatement\(\s*"/g)?.length ?? 0).reduce((a, b) => a + b, 0);
    expect(files.length).toBeGreaterThan(5);
    expect(definedStatements()).toHaveLength(calls);
  });

  // Their commit does not wait for the disk (commitsWithoutWaitingForDisk): each is redone when a
  // crash loses it. Any other statement keeps PostgreSQL's durable commit: what a client was told is
  // done must survive a crash.
  const COMMIT_WITHOUT_DISK_WAIT = ["claim-creation-job", "mark-events-relayed"];

  it("wait for the disk at commit, except the few that are redone when a crash loses them", () => {
    const relaxed = definedStatements()
      .filter((s) => s.compile(s.sample).sql.includes("set_config('synchronous_commit', 'off', true)"))
      .map((s) => s.name)
      .sort();
    expect(relaxed).toEqual([...COMMIT_WITHOUT_DISK_WAIT].sort());
  });

  it("commitsWithoutWaitingForDisk turns the durable wait off for its own transaction only", async () => {
    const statement = definedStatements().find((s) => s.name === "mark-events-relayed")!;
    const { sql, parameters } = statement.compile(statement.sample);
    const setting = async () => (await client.query<{ synchronous_commit: string }>("SHOW synchronous_commit")).rows[0]!.synchronous_commit;
    expect(await setting()).toBe("on");
    await client.query("BEGIN");
    await client.query(sql, [...parameters]);
    // Read by PostgreSQL when this transaction commits.
    expect(await setting()).toBe("off");
    await client.query("COMMIT");
    expect(await setting()).toBe("on");
    // Alone (its own transaction, as the services run it): the session keeps the durable wait after it.
    await client.query(sql, [...parameters]);
    expect(await setting()).toBe("on");
  });

  const statements = definedStatements();
  it.each(statements.map((s) => [s.name, s] as const))("%s parses and plans against the migrated schema", async (_name, statement) => {
    const { sql } = statement.compile(statement.sample);
    await client.query(`PREPARE checked AS ${sql}`);
    await client.query("DEALLOCATE checked");
  });
});

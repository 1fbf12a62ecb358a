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

  const statements = definedStatements();
  it.each(statements.map((s) => [s.name, s] as const))("%s parses and plans against the migrated schema", async (_name, statement) => {
    const { sql } = statement.compile(statement.sample);
    await client.query(`PREPARE checked AS ${sql}`);
    await client.query("DEALLOCATE checked");
  });
});

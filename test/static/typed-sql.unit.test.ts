import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/*
 * One way to query (docs/architecture.md, packages/db/README.md): Prisma's model API for plain
 * CRUD, and for everything else named Kysely statements in `*.sql.ts` files, typed against the
 * schema with every value bound. SQL text - raw Prisma queries, pg `query()` on a string, Kysely's
 * `sql` fragments - exists only inside packages/db, where it is reviewed.
 */

const ROOT = path.resolve(__dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ["node_modules", "generated", "kysely", "test", "dist"].includes(entry.name) ? [] : sources(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const RAW_SQL: readonly [string, RegExp][] = [
  ["a raw Prisma query", /\$(query|execute)Raw(Unsafe)?\b/],
  ["pg query() on SQL text", /\.query(<[^>]*>)?\(\s*[`"'](\s*)(SELECT|INSERT|UPDATE|DELETE|WITH|LISTEN|NOTIFY|BEGIN|COMMIT|CREATE|DROP|ALTER|LOCK)\b/i],
  ["a Kysely sql fragment", /\bsql(\.raw|\.lit|\.ref|\.table|\.id|\.join)?\s*(<[^>]*>)?\s*[`(]/],
  ["Kysely imported directly (go through @esign/db)", /from\s+"kysely(\/[^"]*)?"/],
];

describe("typed SQL", () => {
  // The product's code; the benchmarks' baselines and probes (bench/) are measuring tools outside it.
  const outside = ["packages", "services", "scripts"]
    .flatMap((top) => sources(path.join(ROOT, top)))
    .filter((f) => !f.startsWith(path.join(ROOT, "packages/db/")));

  it("has SQL text only inside packages/db", () => {
    const found = outside.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return RAW_SQL.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${path.relative(ROOT, file)}: ${what}`);
    });
    expect(found).toEqual([]);
  });

  it("defines statements only in *.sql.ts files (where the prepare test finds them)", () => {
    const misplaced = outside.filter((f) => !f.endsWith(".sql.ts") && /defineStatement\(/.test(readFileSync(f, "utf8")));
    expect(misplaced.map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { mixedConventions, modelDelegates, queryUse, statementsWithoutLocksHeader } from "./query-conventions";

/*
 * Two ways to query (docs/architecture.md, packages/db/README.md), one per file: Prisma's model API
 * for plain CRUD off the hot paths, or named Kysely statements in `*.sql.ts` files, typed against
 * the schema with every value bound, each with a header saying what it locks. SQL text - raw Prisma
 * queries, pg `query()` on a string, Kysely's `sql` fragments - exists only inside packages/db,
 * where it is reviewed.
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

// The product's code; the benchmarks' baselines and probes (bench/) are measuring tools outside it.
const product = ["packages", "services", "scripts"].flatMap((top) => sources(path.join(ROOT, top)));

describe("typed SQL", () => {
  const outside = product.filter((f) => !f.startsWith(path.join(ROOT, "packages/db/")));

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

  it("documents what every statement locks (a `Locks:` line in its header)", () => {
    const statementFiles = product.filter((f) => f.endsWith(".sql.ts"));
    expect(statementFiles.length).toBeGreaterThan(10);
    const undocumented = statementFiles.flatMap((f) =>
      statementsWithoutLocksHeader(f, readFileSync(f, "utf8")).map((name) => `${path.relative(ROOT, f)}: ${name}`),
    );
    expect(undocumented).toEqual([]);
  });
});

describe("one query convention per file", () => {
  const delegates = modelDelegates(readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8"));

  it("knows every model of the schema as a delegate", () => {
    expect(delegates).toEqual(expect.arrayContaining(["caseFile", "signer", "creationJob", "webhookSubscription", "refreshToken", "sealCertificate"]));
    expect(delegates.length).toBeGreaterThanOrEqual(16);
  });

  it("has no file that uses both Prisma's model API and typed SQL", () => {
    const mixed = product.flatMap((file) => {
      const why = mixedConventions(file, readFileSync(file, "utf8"), delegates);
      return why ? [`${path.relative(ROOT, file)}: ${why}`] : [];
    });
    expect(mixed).toEqual([]);
  });

  it("finds both conventions in use (the detector looks at real code)", () => {
    const uses = product.map((file) => queryUse(file, readFileSync(file, "utf8"), delegates));
    expect(uses.filter((u) => u.modelApi.length > 0).length).toBeGreaterThan(10);
    expect(uses.filter((u) => u.typedSql.length > 0).length).toBeGreaterThan(10);
  });

  describe("the detector", () => {
    const check = (source: string) => mixedConventions("sample.ts", source, delegates);

    it("refuses a file that mixes a model call and a typed-SQL run, even in one transaction", () => {
      const sample = `
        export async function remove(db: Db, id: number) {
          return db.$transaction(async (tx) => {
            const row = await runOne(tx, lockCaseFileRow, { id, customerId: undefined });
            if (row) await tx.caseFile
              .update({ where: { id }, data: { status: 3 } });
          });
        }`;
      expect(check(sample)).toMatch(/caseFile\.update\(\) line 5.*runOne\(\) line 4/);
    });

    it("refuses a model call on the client and a run on its pool in different functions", () => {
      const sample = `
        const find = (ctx: Ctx, key: string) => ctx.db.creationJob.findUnique({ where: { key } });
        const insert = (ctx: Ctx, row: Row) => run(sqlPool(ctx.db), insertCreationJobSql, row);`;
      expect(check(sample)).toMatch(/creationJob\.findUnique.*run\(\)/);
    });

    it("passes a file of model calls only, in a Prisma transaction, emitting an event", () => {
      const sample = `
        export function expire(db: Db, id: number) {
          return db.$transaction(async (tx) => {
            const cf = await lockCaseFile(tx, id);
            await tx.caseFile.update({ where: { id }, data: { status: 7 } });
            await emitEvent(tx, caseFileEvent(cf, 7, "sign.casefile.expired"));
          });
        }`;
      expect(queryUse("sample.ts", sample, delegates)).toEqual({ modelApi: ["caseFile.update() line 5"], typedSql: [] });
      expect(check(sample)).toBeUndefined();
    });

    it("passes a file of typed-SQL runs only, in a Prisma transaction or a pg one", () => {
      const sample = `
        export const a = (db: Db) => db.$transaction(async (tx) => runOne(tx, lockCaseFileRow, { id: 1, customerId: undefined }));
        export const b = (db: Db) => withSqlTransaction(sqlPool(db), (client) => run(client, markSql, { id: 1 }));`;
      expect(queryUse("sample.ts", sample, delegates).typedSql).toHaveLength(2);
      expect(check(sample)).toBeUndefined();
    });

    it("counts neither calls named in comments or strings, nor methods of things that are not delegates", () => {
      const sample = `
        // Before: tx.signer.update({ ... }) here; now markSignedSql.
        const note = "ctx.db.caseFile.findMany() was slow";
        await run(tx, markSignedSql, args);
        await ctx.storage.delete(sha);
        await signer.status.toString();
        await queue.update(job);`;
      expect(queryUse("sample.ts", sample, delegates)).toEqual({ modelApi: [], typedSql: ["run() line 4"] });
    });
  });

  describe("the header check", () => {
    it("refuses a statement without a Locks: line and passes one with it", () => {
      const sample = `
        /** Reads a signer. */
        export const readSigner = defineStatement("read-signer", { id: 1 }, ({ id }) => qb.selectFrom("Signer").selectAll().where("id", "=", id));

        /**
         * Marks a signer deleted.
         *
         * Locks: the Signer row (the UPDATE's), until the transaction ends.
         */
        export const markDeleted = defineStatement("mark-deleted", { id: 1 }, ({ id }) => qb.updateTable("Signer").set({ status: 3 }).where("id", "=", id));`;
      expect(statementsWithoutLocksHeader("sample.sql.ts", sample)).toEqual(["read-signer"]);
    });
  });
});

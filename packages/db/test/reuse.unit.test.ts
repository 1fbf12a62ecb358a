import { qb } from "../src/typed-sql/builder";
import { typedArray } from "../src/typed-sql/expressions";
import { memoizedCompile, reusingCompile } from "../src/typed-sql/reuse";

/*
 * Statements declared `reuse: "shape"` compile once per shape and bind each call's values
 * (src/typed-sql/reuse.ts). What a call gets must be exactly what compiling it anew gives.
 */

interface Row {
  id: string;
  title: string;
  signable: boolean;
  pageCount: number | null;
  roles: string[];
  sentAt?: Date;
}

const insertRows = (a: { rows: Row[]; caseFileId: number }) =>
  qb
    .insertInto("Document")
    .values(a.rows.map((r) => ({ ...r, caseFileId: a.caseFileId, name: "x.pdf", fileSha256: "0", size: 1 })) as never)
    .returning("id");

const byIds = (a: { ids: string[]; state: string; at: Date }) =>
  qb
    .selectFrom("WebhookDelivery")
    .select("id")
    .where("id", "=", typedArray(a.ids, "uuid") as never)
    .where("state", "=", a.state)
    .where("createdAt", "<", a.at);

const row = (i: number, extra: Partial<Row> = {}): Row => ({
  id: `id-${i}`,
  title: `T ${i}`,
  signable: i % 2 === 0,
  pageCount: i % 3 === 0 ? null : i,
  roles: ["signer", `r${i}`],
  ...extra,
});

describe("reusing a statement's compiled text per shape", () => {
  it("answers each call exactly what compiling it anew answers: values bound, nulls and booleans included", () => {
    const compile = reusingCompile("test-insert", insertRows, true);
    for (const args of [
      { rows: [row(1)], caseFileId: 7 },
      { rows: [row(2)], caseFileId: 8 },
      { rows: [row(3), row(4)], caseFileId: 9 },
      { rows: [row(5, { sentAt: new Date(5) }), row(6)], caseFileId: 10 },
      { rows: [row(6), row(5, { sentAt: new Date(6) })], caseFileId: 11 },
    ]) {
      const direct = insertRows(args).compile();
      const reused = compile(args);
      expect(reused.sql).toBe(direct.sql);
      expect(reused.parameters).toEqual(direct.parameters);
    }
  });

  it("binds an array of values as one parameter, whatever its length", () => {
    const compile = reusingCompile("test-by-ids", byIds, true);
    const a = compile({ ids: ["a"], state: "pending", at: new Date(1) });
    const b = compile({ ids: ["b", "c", "d"], state: "failed", at: new Date(2) });
    expect(b.sql).toBe(a.sql);
    expect(b.parameters).toEqual([["b", "c", "d"], "failed", new Date(2)]);
  });

  it('refuses, in tests, a build that decides its text by a value (the promise of reuse: "shape" broken)', () => {
    const branchy = (a: { limit: number }) => (a.limit > 10 ? qb.selectFrom("Event").select("id").limit(a.limit) : qb.selectFrom("Event").select("id"));
    const compile = reusingCompile("test-branchy", branchy, true);
    expect(() => compile({ limit: 50 })).toThrow(/test-branchy.*depends on a value/);
    // Outside tests it falls back to compiling every call, correctly.
    const lenient = reusingCompile("test-branchy-production", branchy, false);
    expect(lenient({ limit: 50 }).sql).toBe(branchy({ limit: 50 }).compile().sql);
    expect(lenient({ limit: 5 }).sql).toBe(branchy({ limit: 5 }).compile().sql);
  });

  it("refuses, in tests, a build that transforms a value", () => {
    const transforming = (a: { title: string }) => qb.selectFrom("CaseFile").select("id").where("title", "=", a.title.trim());
    expect(() => reusingCompile("test-transforming", transforming, true)({ title: " x " })).toThrow(/test-transforming.*uses a value/);
  });
});

describe("memoizing a statement of a few settings", () => {
  it("compiles once per distinct arguments", () => {
    let builds = 0;
    const compile = memoizedCompile((a: { size: number }) => {
      builds++;
      return qb.selectFrom("Event").select("id").limit(a.size);
    });
    expect(compile({ size: 100 })).toBe(compile({ size: 100 }));
    compile({ size: 50 });
    expect(builds).toBe(2);
  });
});

import { qb } from "../src/typed-sql/builder";
import { sql } from "kysely";
import { literalInt, literalText, literalUuid, typedArray } from "../src/typed-sql/expressions";
import { memoizedCompile, pastingCompile, reusingCompile } from "../src/typed-sql/reuse";

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

describe("reusing the text of a statement of pasted literals (a transaction's opening)", () => {
  const lockAndDraw = (a: { id: string; count: number; key: string }) =>
    qb
      .selectFrom("CreationJob")
      .select(sql<string>`hashtext(${literalText(a.key)}::text)`.as("h"))
      .select(sql<number>`${literalInt(a.count)}::int`.as("n"))
      .where("id", "=", literalUuid(a.id))
      .forUpdate();
  const uuid = (i: number) => `0b9c3c56-2a0e-4f57-9d7e-${String(i).padStart(12, "0")}`;

  it("answers each call exactly what compiling it anew answers, with no parameters, while building it once", () => {
    let builds = 0;
    const counted = (a: { id: string; count: number; key: string }) => (builds++, lockAndDraw(a));
    const compile = pastingCompile("test-pasted", counted, false);
    for (let i = 0; i < 20; i++) {
      const args = { id: uuid(i), count: i + 1, key: `request:${i}:${uuid(i)}` };
      const pasted = compile(args);
      const direct = lockAndDraw(args).compile();
      expect(pasted.sql).toBe(direct.sql);
      expect(pasted.parameters).toEqual([]);
    }
    // The first call builds twice (with markers, and directly to compare); the others not at all.
    expect(builds).toBe(2);
  });

  it("never pastes a value outside the safe alphabet: such a call is compiled directly, and the build's own check throws", () => {
    const compile = pastingCompile("test-pasted-unsafe", lockAndDraw, true);
    compile({ id: uuid(1), count: 1, key: "ok" });
    expect(() => compile({ id: uuid(2), count: 1, key: 'x\'; DROP TABLE "User"; --' })).toThrow("not a pasteable text literal");
    expect(() => compile({ id: "not-a-uuid'", count: 1, key: "ok" })).toThrow("not a uuid");
  });

  it("refuses, in tests, a build whose text depends on a value beyond its literals, or that transforms one", () => {
    const branching = (a: { n: number }) => qb.selectNoFrom(a.n > 5 ? sql<number>`${literalInt(a.n)}`.as("big") : sql<number>`${literalInt(a.n)}`.as("small"));
    // The marker (a large integer) takes the other branch than 1 does: the first call's comparison finds it.
    expect(() => pastingCompile("test-pasted-branch", branching, true)({ n: 1 })).toThrow(/depends on a value/);
    const compile = pastingCompile("test-pasted-branch-late", branching, true);
    compile({ n: 7 });
    expect(() => compile({ n: 2 })).toThrow(/depends on a value/);
    const transforming = (a: { n: number }) => qb.selectNoFrom(sql<number>`${literalInt(Math.min(a.n, 3))}`.as("n"));
    expect(() => pastingCompile("test-pasted-transform", transforming, true)({ n: 9 })).toThrow(/not all pasted literals|depends on a value/);
  });
});

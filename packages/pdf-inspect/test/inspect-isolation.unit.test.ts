import { PdfInspector } from "../src";
import { makePdf } from "../../../test/support/pdf";
import { makeInflationBombPdf, makeObjectFloodPdf } from "../../../test/support/hostile-pdf";
import { file, hangingFile, MiB, sha } from "./support/pdf-files";

/*
 * Issue 26, item 2 (see inspect-bounds.unit.test.ts): each document is bounded (decompressed bytes, heap,
 * time) and refused as `too_costly`, and a process works on one file at a time, so the bound that kills
 * it takes nobody else's file with it. Its own file: these suites wait on real time-outs, and the unit
 * tier's workers run the three PdfInspector files side by side.
 */

describe("PdfInspector's bounds and isolation (child processes)", () => {
  let inspector: PdfInspector | undefined;
  afterEach(() => inspector?.close());

  it("starts every process at the first file, so that no customer's file waits for a process to start while another is ready", async () => {
    inspector = new PdfInspector({ processes: 2, timeoutMs: 30_000 });
    expect(inspector.processesRunning).toBe(0);
    const good = await makePdf("first");
    expect(await inspector.inspect(file(good), sha(good), "customer:1")).toEqual({ ok: true, pages: 1 });
    expect(inspector.processesRunning).toBe(2);
  }, 60_000);

  it("refuses one customer's bombs as too costly while another customer's valid PDF sent at the same time succeeds", async () => {
    inspector = new PdfInspector({ processes: 2, timeoutMs: 30_000, maxInflatedBytes: 8 * MiB });
    const bombs = await Promise.all([1, 2, 3].map((i) => makeInflationBombPdf(64 * MiB, `bomb ${i}`)));
    const good = await makePdf("customer B", 2);
    const results = await Promise.all([
      ...bombs.map((b) => inspector!.inspect(file(b), sha(b), "customer:1")),
      inspector.inspect(file(good), sha(good), "customer:2"),
    ]);
    for (const r of results.slice(0, 3)) expect(r).toMatchObject({ ok: false, reason: "too_costly" });
    expect(results[3]).toEqual({ ok: true, pages: 2 });
  }, 60_000);

  it("a process killed by the heap cap takes only its own document: the others waiting for it are inspected on a fresh one", async () => {
    // One process, so every other file waits for the one the flood kills.
    inspector = new PdfInspector({ processes: 1, timeoutMs: 60_000, maxInflatedBytes: 512 * MiB, maxHeapMb: 96 });
    const flood = await makeObjectFloodPdf(4_000_000);
    const goods = await Promise.all(["B", "C", "D"].map((c) => makePdf(`customer ${c}`)));
    const results = await Promise.all([
      inspector.inspect(file(flood), sha(flood), "customer:1"),
      ...goods.map((g, i) => inspector!.inspect(file(g), sha(g), `customer:${i + 2}`)),
    ]);
    expect(results[0]).toMatchObject({ ok: false, reason: "too_costly", detail: expect.stringContaining("PDF_INSPECT_MAX_HEAP_MB") });
    expect(results.slice(1)).toEqual([
      { ok: true, pages: 1 },
      { ok: true, pages: 1 },
      { ok: true, pages: 1 },
    ]);
  }, 120_000);

  it("a time-out kills only the process on the late document, refused as too costly (not remembered); the waiting ones go on", async () => {
    // Long enough for the fresh process the waiting file gets to start (its start counts in its own time).
    inspector = new PdfInspector({ processes: 1, timeoutMs: 6_000 });
    const good = await makePdf("waiting");
    const hang = hangingFile();
    const [late, waiting] = await Promise.all([inspector.inspect(hang, "hang", "customer:1"), inspector.inspect(file(good), sha(good), "customer:2")]);
    expect(late).toMatchObject({ ok: false, reason: "too_costly", detail: expect.stringContaining("PDF_INSPECT_TIMEOUT_MS") });
    expect(waiting).toEqual({ ok: true, pages: 1 });
    // Not remembered: a time-out may be the machine's; the same content address is looked at again.
    const again = await makePdf("now readable");
    expect(await inspector.inspect(file(again), "hang", "customer:1")).toEqual({ ok: true, pages: 1 });
  }, 60_000);
});

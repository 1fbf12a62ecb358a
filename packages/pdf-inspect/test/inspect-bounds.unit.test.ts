import { readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { heapFlags, inspectPdf, PdfInspector, type PdfInspection } from "../src";
import { FairQueue } from "../src/fair-queue";
import { makePdf } from "../../../test/support/pdf";
import { eventually } from "../../../test/support/eventually";
import { makeInflationBombPdf } from "../../../test/support/hostile-pdf";
import { file, hangingFile, MiB, sha } from "./support/pdf-files";

/*
 * Issue 26, item 2: one customer's costly PDFs (object streams that inflate to 1 GiB) took the
 * shared inspector process for seconds and another customer's valid PDF came back `pdf_unreadable`.
 * Each document is now bounded (decompressed bytes, heap, time) and refused as `too_costly`; a
 * process works on one file at a time, so the bound that kills it takes nobody else's file with it;
 * and a fair queue per tenant keeps one customer's files from holding every process.
 */

describe("inspectPdf's inflation budget", () => {
  it("refuses a document whose object stream inflates past the budget as too costly, and opens an ordinary one under it", async () => {
    const bomb = await makeInflationBombPdf(64 * MiB);
    expect(bomb.length).toBeLessThan(MiB);
    expect(await inspectPdf(bomb, { maxInflatedBytes: 8 * MiB })).toMatchObject({
      ok: false,
      reason: "too_costly",
      detail: expect.stringContaining("8388608 bytes"),
    });
    // The same file is a valid PDF: refused for its cost only.
    expect(await inspectPdf(bomb, { maxInflatedBytes: 128 * MiB })).toEqual({ ok: true, pages: 1 });
    expect(await inspectPdf(await makePdf("ordinary", 3), { maxInflatedBytes: 8 * MiB })).toEqual({ ok: true, pages: 3 });
  }, 60_000);
});

describe("FairQueue", () => {
  it("serves tenants round-robin and holds back a tenant at its running limit", () => {
    const q = new FairQueue<string>(1);
    for (const item of ["a1", "a2", "a3"]) q.push("A", item);
    q.push("B", "b1");
    q.push("C", "c1");
    expect(q.next()).toEqual({ tenant: "A", item: "a1", borrowed: false });
    // A has one running: B and C go first, then nothing until A's first is done.
    expect(q.next()).toEqual({ tenant: "B", item: "b1", borrowed: false });
    expect(q.next()).toEqual({ tenant: "C", item: "c1", borrowed: false });
    expect(q.next()).toBeUndefined();
    q.done("A");
    expect(q.next()).toEqual({ tenant: "A", item: "a2", borrowed: false });
    expect(q.drain()).toEqual(["a3"]);
  });

  it("lends an idle turn past a tenant's share only when asked, never to an item marked not to borrow, and puts a preempted item back at its tenant's head", () => {
    const q = new FairQueue<string>(1);
    q.push("A", "a1");
    q.push("A", "a2");
    expect(q.next({ borrow: true })).toEqual({ tenant: "A", item: "a1", borrowed: false });
    // Nobody else waits: A may borrow, but only when the caller allows it.
    expect(q.next()).toBeUndefined();
    expect(q.next({ borrow: true, mayBorrow: (item) => item !== "a2" })).toBeUndefined();
    expect(q.next({ borrow: true })).toEqual({ tenant: "A", item: "a2", borrowed: true });
    // B arrives within its share: that is what a borrowed run is stopped for.
    expect(q.waitsWithinShare("A")).toBe(false);
    q.push("B", "b1");
    expect(q.waitsWithinShare("A")).toBe(true);
    expect(q.waitsWithinShare("B")).toBe(false);
    q.done("A");
    q.push("A", "a3");
    q.pushFront("A", "a2");
    expect(q.next()).toEqual({ tenant: "B", item: "b1", borrowed: false });
    q.done("A");
    expect(q.next()).toEqual({ tenant: "A", item: "a2", borrowed: false });
  });
});

describe("FairQueue for prefetch", () => {
  it("hands a tenant's own next item past its share when allowed, and says whether anyone else waits", () => {
    const q = new FairQueue<string>(1);
    q.push("A", "a1");
    q.push("A", "a2");
    q.push("A", "a3");
    expect(q.next()).toEqual({ tenant: "A", item: "a1", borrowed: false });
    expect(q.waitsOtherThan("A")).toBe(false);
    expect(q.takeFrom("A", (item) => item !== "a2")).toBeUndefined();
    expect(q.takeFrom("A", () => true)).toBe("a2");
    expect(q.takeFrom("B", () => true)).toBeUndefined();
    q.push("B", "b1");
    expect(q.waitsOtherThan("A")).toBe(true);
    expect(q.waitsOtherThan("B")).toBe(true);
    // A holds two: a1 and a2 are both counted as running.
    q.done("A");
    expect(q.next()).toEqual({ tenant: "B", item: "b1", borrowed: false });
    expect(q.next()).toBeUndefined();
    q.done("A");
    expect(q.next()).toEqual({ tenant: "A", item: "a3", borrowed: false });
  });
});

describe("PdfInspector's prefetch (PDF_INSPECT_PREFETCH, child processes)", () => {
  let inspector: PdfInspector | undefined;
  afterEach(() => inspector?.close());

  it("sends a busy process its customer's next files ahead while nobody else waits, up to the setting, and answers every one", async () => {
    inspector = new PdfInspector({ processes: 1, timeoutMs: 30_000, prefetch: 3 });
    const goods = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => makePdf(`prefetched ${i}`)));
    const results = goods.map((g) => inspector!.inspect(file(g), sha(g), "customer:1"));
    // The one worked on and three sent ahead; the sixth waits in the queue.
    expect(inspector.filesPerProcess).toEqual([4]);
    expect(await Promise.all(results)).toEqual(goods.map(() => ({ ok: true, pages: 1 })));

    const strict = new PdfInspector({ processes: 1, timeoutMs: 30_000, prefetch: 0 });
    try {
      const more = await Promise.all([7, 8].map((i) => makePdf(`one at a time ${i}`)));
      const answers = more.map((g) => strict.inspect(file(g), sha(g), "customer:1"));
      expect(strict.filesPerProcess).toEqual([1]);
      expect(await Promise.all(answers)).toEqual(more.map(() => ({ ok: true, pages: 1 })));
    } finally {
      await strict.close();
    }
  }, 60_000);

  it("asks the files sent ahead back when another customer's file arrives: it is answered right after the file being worked on, before them", async () => {
    inspector = new PdfInspector({ processes: 1, timeoutMs: 30_000, prefetch: 4 });
    const order: string[] = [];
    const track = (name: string, p: Promise<PdfInspection>) => p.then((r) => (order.push(name), r));
    // A's first file is a FIFO: its read waits until the test writes the PDF, so it is still being worked on when B arrives.
    const slow = hangingFile();
    const aFiles = await Promise.all([2, 3, 4].map((i) => makePdf(`A ${i}`)));
    const bFile = await makePdf("B");
    const a1 = track("A1", inspector.inspect(slow, "slow-a1", "customer:1"));
    const later = aFiles.map((g, i) => track(`A${i + 2}`, inspector!.inspect(file(g), sha(g), "customer:1")));
    expect(inspector.filesPerProcess).toEqual([4]);
    const b = track("B", inspector.inspect(file(bFile), sha(bFile), "customer:2"));
    // The three sent ahead come back unstarted; then A's first file completes.
    await eventually(async () => inspector!.filesPerProcess[0] === 1, 10_000);
    await writeFile(slow, await makePdf("A 1"));
    expect(await Promise.all([a1, b, ...later])).toEqual([1, 2, 3, 4, 5].map(() => ({ ok: true, pages: 1 })));
    expect(order).toEqual(["A1", "B", "A2", "A3", "A4"]);
  }, 60_000);

  it("a process killed by the time-out of the file it works on hands the files sent ahead back: they run on a fresh process", async () => {
    inspector = new PdfInspector({ processes: 1, timeoutMs: 4_000, prefetch: 4 });
    const goods = await Promise.all([1, 2].map((i) => makePdf(`behind the late one ${i}`)));
    const late = inspector.inspect(hangingFile(), "late-prefetch", "customer:1");
    const behind = goods.map((g) => inspector!.inspect(file(g), sha(g), "customer:1"));
    expect(inspector.filesPerProcess).toEqual([3]);
    expect(await late).toMatchObject({ ok: false, reason: "too_costly", detail: expect.stringContaining("PDF_INSPECT_TIMEOUT_MS") });
    expect(await Promise.all(behind)).toEqual([
      { ok: true, pages: 1 },
      { ok: true, pages: 1 },
    ]);
  }, 60_000);
});

/** The command lines of this process's live children (the inspector processes). */
function childCommandLines(): string[][] {
  const out: string[][] = [];
  for (const tid of readdirSync(`/proc/${process.pid}/task`)) {
    let children = "";
    try {
      children = readFileSync(`/proc/${process.pid}/task/${tid}/children`, "utf8");
    } catch {
      continue;
    }
    for (const pid of children.split(" ").filter(Boolean)) {
      try {
        out.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"));
      } catch {
        // exited meanwhile
      }
    }
  }
  return out;
}

describe("PdfInspector's heap flags (PDF_INSPECT_MAX_HEAP_MB)", () => {
  let inspector: PdfInspector | undefined;
  afterEach(() => inspector?.close());

  it("caps each process's heap and starts its old-space collection at 64 MB, never above half the cap", async () => {
    // Given only the cap, V8 started full collections at a few MB: 25 of them in 1,400 ordinary files instead of 4.
    expect(heapFlags(384)).toEqual(["--max-old-space-size=384", "--initial-old-space-size=64"]);
    expect(heapFlags(96)).toEqual(["--max-old-space-size=96", "--initial-old-space-size=48"]);
    expect(heapFlags(1)).toEqual(["--max-old-space-size=1", "--initial-old-space-size=1"]);
    inspector = new PdfInspector({ processes: 1, timeoutMs: 30_000, maxHeapMb: 200 });
    const good = await makePdf("flags");
    expect(await inspector.inspect(file(good), sha(good), "customer:1")).toEqual({ ok: true, pages: 1 });
    const inspectors = childCommandLines().filter((argv) => argv.some((a) => a.includes("inspector")));
    expect(inspectors).toHaveLength(1);
    expect(inspectors[0]).toEqual(expect.arrayContaining(["--max-old-space-size=200", "--initial-old-space-size=64"]));
  }, 60_000);
});

import { PdfInspector, type PdfInspection } from "../src";
import { makePdf } from "../../../test/support/pdf";
import { eventually } from "../../../test/support/eventually";
import { file, hangingFile, sha } from "./support/pdf-files";

/*
 * Issue 26, item 2 (see inspect-bounds.unit.test.ts): a fair queue per customer keeps one customer's
 * files from holding every process, while work-conserving borrowing lets a customer use a process
 * nobody else needs. Its own file: these suites wait on real time-outs (one of them 16 s), and the unit
 * tier's workers run the three PdfInspector files side by side.
 */

describe("PdfInspector's fair share between customers (child processes)", () => {
  let inspector: PdfInspector | undefined;
  afterEach(() => inspector?.close());

  it("work-conserving: while nobody else waits, one customer's second file uses the idle process instead of waiting behind its first", async () => {
    const order: string[] = [];
    const track = (name: string, p: Promise<PdfInspection>) => p.then((r) => (order.push(name), r));
    inspector = new PdfInspector({ processes: 2, timeoutMs: 6_000, perTenant: 1 });
    const good = await makePdf("second of A");
    const [hung, second] = await Promise.all([
      track("hang", inspector.inspect(hangingFile(), "hang-borrow", "customer:1")),
      track("good", inspector.inspect(file(good), sha(good), "customer:1")),
    ]);
    expect(second).toEqual({ ok: true, pages: 1 });
    expect(hung).toMatchObject({ ok: false, reason: "too_costly" });
    expect(order).toEqual(["good", "hang"]);
  }, 60_000);

  it("a customer's next file goes first to the process already working for it (one process woken per create), not to the idle one", async () => {
    inspector = new PdfInspector({ processes: 2, timeoutMs: 30_000, perTenant: 1 });
    const warm = await makePdf("warm");
    await inspector.inspect(file(warm), sha(warm), "customer:1");
    const goods = await Promise.all([1, 2].map((i) => makePdf(`both files of a create ${i}`)));
    const answers = goods.map((g) => inspector!.inspect(file(g), sha(g), "customer:1"));
    // Both in the first process's line: the second sent ahead behind the first; the other process stays asleep.
    expect(inspector.filesPerProcess).toEqual([2, 0]);
    expect(await Promise.all(answers)).toEqual([
      { ok: true, pages: 1 },
      { ok: true, pages: 1 },
    ]);
  }, 60_000);

  it("with borrowing off (PDF_INSPECT_BORROW_MS=0) a customer's files wait for its own share, as before", async () => {
    const order: string[] = [];
    const track = (name: string, p: Promise<PdfInspection>) => p.then((r) => (order.push(name), r));
    inspector = new PdfInspector({ processes: 2, timeoutMs: 4_000, perTenant: 1, borrowMs: 0 });
    const good = await makePdf("second of A, strict");
    await Promise.all([
      track("hang", inspector.inspect(hangingFile(), "hang-strict", "customer:1")),
      track("good", inspector.inspect(file(good), sha(good), "customer:1")),
    ]);
    expect(order).toEqual(["hang", "good"]);
  }, 60_000);

  it("one customer's hanging files never hold every process: its borrowed run is stopped for another customer's file, which is answered before the first of them is", async () => {
    const problems: string[] = [];
    inspector = new PdfInspector({ processes: 2, timeoutMs: 8_000, perTenant: 1, borrowMs: 300, onProblem: (m) => problems.push(m) });
    const order: string[] = [];
    const track = (name: string, p: Promise<PdfInspection>) => p.then((r) => (order.push(name), r));
    const hostile = [1, 2].map((i) => track(`A${i}`, inspector!.inspect(hangingFile(), `hang-${i}`, "customer:1")));
    // A's second file waits behind its first in the same process, then, that one being slow, borrows the idle one.
    await eventually(async () => inspector!.filesPerProcess.join() === "1,1", 10_000);
    const good = await makePdf("customer B");
    const b = await track("B", inspector.inspect(file(good), sha(good), "customer:2"));
    expect(b).toEqual({ ok: true, pages: 1 });
    // B was answered while all of A's files were still waiting or hanging: A had one process, never both.
    expect(order).toEqual(["B"]);
    // A's second file had borrowed the other process; it was stopped for B and ran again in A's own turn.
    expect(problems.filter((m) => m.startsWith("borrowed pdf inspection stopped"))).toHaveLength(1);
    for (const r of await Promise.all(hostile)) expect(r).toMatchObject({ ok: false, reason: "too_costly" });
  }, 120_000);
});

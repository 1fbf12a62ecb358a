import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inspectPdf, PdfInspector } from "../src";
import { makeEncryptedPdf, makePdf, makeUnreadablePdf } from "../../../test/support/pdf";
import { sha } from "./support/pdf-files";

describe("inspectPdf", () => {
  it("counts the pages of a valid PDF", async () => {
    expect(await inspectPdf(await makePdf("three", 3))).toEqual({ ok: true, pages: 3 });
  });

  it("refuses an encrypted PDF, and bytes no parser reads", async () => {
    expect(await inspectPdf(await makeEncryptedPdf("locked"))).toMatchObject({ ok: false, reason: "encrypted" });
    expect(await inspectPdf(makeUnreadablePdf())).toMatchObject({ ok: false, reason: "unreadable" });
    expect(await inspectPdf(Buffer.alloc(0))).toMatchObject({ ok: false, reason: "unreadable" });
  });
});

describe("PdfInspector (child processes)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pdf-inspect-"));
  const file = (name: string, content: Buffer) => {
    const p = path.join(dir, name);
    writeFileSync(p, content);
    return p;
  };
  let inspector: PdfInspector;
  afterEach(() => inspector?.close());

  it("inspects files on disk in another process, in parallel, and remembers verdicts by content address", async () => {
    inspector = new PdfInspector({ processes: 2, timeoutMs: 20_000 });
    const good = await makePdf("two", 2);
    const locked = await makeEncryptedPdf("locked");
    const [a, b, c] = await Promise.all([
      inspector.inspect(file("good.pdf", good), sha(good)),
      inspector.inspect(file("locked.pdf", locked), sha(locked)),
      inspector.inspect(file("garbage.pdf", makeUnreadablePdf()), sha(makeUnreadablePdf())),
    ]);
    expect(a).toEqual({ ok: true, pages: 2 });
    expect(b).toMatchObject({ ok: false, reason: "encrypted" });
    expect(c).toMatchObject({ ok: false, reason: "unreadable" });
    // Remembered: the same content address is answered without reading the (now missing) file.
    expect(await inspector.inspect(path.join(dir, "gone.pdf"), sha(good))).toEqual({ ok: true, pages: 2 });
  }, 30_000);

  it("answers a file it cannot open within the time-out as too costly, without remembering it, and goes on", async () => {
    inspector = new PdfInspector({ processes: 1, timeoutMs: 1 });
    const good = await makePdf("slow");
    const first = await inspector.inspect(file("slow.pdf", good), sha(good));
    expect(first).toMatchObject({ ok: false, reason: "too_costly", detail: expect.stringContaining("within 1 ms") });
    inspector.close();
    inspector = new PdfInspector({ processes: 1, timeoutMs: 20_000 });
    expect(await inspector.inspect(file("slow.pdf", good), sha(good))).toEqual({ ok: true, pages: 1 });
  }, 30_000);
});

import { readFile } from "node:fs/promises";
import { inspectPdf } from "./inspect-pdf";
import { ZInspectRequest, type InspectReply } from "./messages";

/*
 * The inspector child process (forked by PdfInspector): one file at a time, read from disk here so
 * that neither the file nor LibPDF's parse ever sits in the gateway's own memory. A request that
 * does not parse is ignored: the parent times it out.
 */
process.on("message", (raw: unknown) => {
  const req = ZInspectRequest.safeParse(raw);
  if (!req.success) return;
  void (async () => {
    let reply: InspectReply;
    try {
      reply = { id: req.data.id, result: await inspectPdf(await readFile(req.data.path)) };
    } catch (err) {
      reply = { id: req.data.id, result: { ok: false, reason: "unreadable", detail: `could not read the upload: ${(err as Error).message}` } };
    }
    process.send?.(reply);
  })();
});

// Without a parent there is nothing to do; with one gone, exit rather than linger.
process.on("disconnect", () => process.exit(0));

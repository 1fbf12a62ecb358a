import { readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
// The verification modules alone, not the package's index: the child needs no fonts, no seal maker.
import { certificateFingerprint } from "@esign/seal/src/pki/certificates";
import { inspectSeal } from "@esign/seal/src/verify/verify-sealed-pdf";
import { inspectPdf } from "./inspect-pdf";
import {
  ZCancelRequest,
  ZInspectRequest,
  ZSealRequest,
  type CancelRequest,
  type CancelledReply,
  type InspectReply,
  type InspectRequest,
  type SealReply,
  type SealRequest,
} from "./messages";

/*
 * The inspector child process (forked by PdfInspector): one file at a time, in the order sent. The
 * parent may send a customer's next files before this one is done (PDF_INSPECT_PREFETCH): they wait
 * here, in `line`, and start as soon as the one before is answered, without a round trip through the
 * gateway's busy event loop; it may ask them back (a cancel) while they wait. A death or a time-out
 * here still concerns only the file being worked on: the parent puts the waiting ones back in its
 * queue. Files are read from disk here so that neither the file nor LibPDF's parse ever sits in the
 * gateway's own memory. Its heap is capped by the parent (--max-old-space-size), its decompression
 * per document here (`maxInflatedBytes`). A request that does not parse is ignored: the parent times
 * it out.
 */
type Work = { kind: "inspect"; req: InspectRequest } | { kind: "seal"; req: SealRequest };
const line: Work[] = [];
let busy = false;

/**
 * A message read by the one schema its `op` names (none: a file to inspect). Tried one schema after
 * another, every file cost two failed parses, and a failed zod parse builds its error objects.
 */
function read(raw: unknown): Work | CancelRequest | undefined {
  const op = typeof raw === "object" && raw !== null ? (raw as { op?: unknown }).op : undefined;
  if (op === "cancel") return ZCancelRequest.safeParse(raw).data;
  if (op === "seal") {
    const req = ZSealRequest.safeParse(raw).data;
    return req && { kind: "seal", req };
  }
  const req = ZInspectRequest.safeParse(raw).data;
  return req && { kind: "inspect", req };
}

process.on("message", (raw: unknown) => {
  const message = read(raw);
  if (!message) return;
  if ("op" in message) {
    const asked = new Set(message.ids);
    // One already started (or done) is answered as usual; the rest go back in the order they came.
    const cancelled = line.filter((w) => asked.has(w.req.id)).map((w) => w.req.id);
    line.splice(0, line.length, ...line.filter((w) => !asked.has(w.req.id)));
    process.send?.({ cancelled } satisfies CancelledReply);
    return;
  }
  line.push(message);
  workOn();
});

/** Starts the next waiting file unless one is in progress; each answer is sent before the next starts. */
function workOn(): void {
  if (busy) return;
  const next = line.shift();
  if (!next) return;
  busy = true;
  void (next.kind === "seal" ? checkSeal(next.req) : inspect(next.req)).then((reply) => {
    process.send?.(reply);
    busy = false;
    // Next turn: a cancel the parent sent meanwhile is read before the next file starts.
    setImmediate(workOn);
  });
}

/**
 * The bytes of a file to inspect. A regular file (every staged upload) is read synchronously: this
 * process works on one file at a time and reads its messages between files, so the read holds
 * nothing up, and through the thread pool it was four hops (open, stat, read, close) of 30-50 us of
 * CPU each on the bench machine, several times the parse of an ordinary PDF (bench/README.md round
 * 10). Anything else (a FIFO, a device) may block for as long as its writer likes: read through the
 * thread pool, so that the parent's messages are still read meanwhile.
 */
function readUpload(path: string): Buffer | Promise<Buffer> {
  return statSync(path).isFile() ? readFileSync(path) : readFile(path);
}

async function inspect(req: InspectRequest): Promise<InspectReply> {
  try {
    return { id: req.id, result: await inspectPdf(await readUpload(req.path), { maxInflatedBytes: req.maxInflatedBytes }) };
  } catch (err) {
    return { id: req.id, result: { ok: false, reason: "unreadable", detail: `could not read the upload: ${(err as Error).message}` } };
  }
}

// Without a parent there is nothing to do; with one gone, exit rather than linger.
process.on("disconnect", () => process.exit(0));

/**
 * The public /verify's signature check (issue 26, item 1), here rather than in the gateway: the search
 * and the CMS check cost CPU in proportion to the file, and a process that takes too long is killed.
 */
async function checkSeal({ id, path }: SealRequest): Promise<SealReply> {
  try {
    const { check } = await inspectSeal(await readUpload(path));
    return {
      id,
      seal: check
        ? {
            signatureValid: check.signatureValid,
            digestMatches: check.digestMatches,
            coversWholeFile: check.coversWholeFile,
            certificateSha256: check.signerCertificate ? certificateFingerprint(check.signerCertificate) : null,
          }
        : null,
    };
  } catch (err) {
    return { id, seal: null, error: (err as Error).message };
  }
}

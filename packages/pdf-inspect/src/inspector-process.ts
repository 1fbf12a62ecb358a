import { readFile } from "node:fs/promises";
// The verification modules alone, not the package's index: the child needs no fonts, no seal maker.
import { certificateFingerprint } from "@esign/seal/src/pki/certificates";
import { inspectSeal } from "@esign/seal/src/verify/verify-sealed-pdf";
import { inspectPdf } from "./inspect-pdf";
import { ZInspectRequest, ZSealRequest, type InspectReply, type SealReply } from "./messages";

/*
 * The inspector child process (forked by PdfInspector): one file at a time (the parent sends the
 * next only after the answer, so a death or a time-out here concerns that file alone), read from
 * disk here so that neither the file nor LibPDF's parse ever sits in the gateway's own memory. Its
 * heap is capped by the parent (--max-old-space-size), its decompression per document here
 * (`maxInflatedBytes`). A request that does not parse is ignored: the parent times it out.
 */
process.on("message", (raw: unknown) => {
  const seal = ZSealRequest.safeParse(raw);
  if (seal.success) return void checkSeal(seal.data.id, seal.data.path);
  const req = ZInspectRequest.safeParse(raw);
  if (!req.success) return;
  void (async () => {
    let reply: InspectReply;
    try {
      reply = { id: req.data.id, result: await inspectPdf(await readFile(req.data.path), { maxInflatedBytes: req.data.maxInflatedBytes }) };
    } catch (err) {
      reply = { id: req.data.id, result: { ok: false, reason: "unreadable", detail: `could not read the upload: ${(err as Error).message}` } };
    }
    process.send?.(reply);
  })();
});

// Without a parent there is nothing to do; with one gone, exit rather than linger.
process.on("disconnect", () => process.exit(0));

/**
 * The public /verify's signature check (issue 26, item 1), here rather than in the gateway: the search
 * and the CMS check cost CPU in proportion to the file, and a process that takes too long is killed.
 */
async function checkSeal(id: number, path: string): Promise<void> {
  let reply: SealReply;
  try {
    const { check } = await inspectSeal(await readFile(path));
    reply = {
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
    reply = { id, seal: null, error: (err as Error).message };
  }
  process.send?.(reply);
}

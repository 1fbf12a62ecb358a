import { Router, type NextFunction, type Request, type Response } from "express";
import { AppError } from "@esign/errors";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
// The verifier's own module, not the package's index: the index also exports the sealing code, which
// loads @libpdf/core (~350-400 ms of CPU at every gateway start) that the gateway never uses.
import { inspectSeal, publicVerdict } from "@esign/seal/src/verify/verify-sealed-pdf";
import type { GatewayContext } from "../context";
import { addressTenant } from "../pdf-inspector";
import { authenticate, principalOf } from "../auth/authenticate";
import { abuseLimits, addressOf } from "../http/abuse-limits";
import { readPdfUpload, uploadedPdf } from "./read-pdf-upload";
import { presentDocumentVerification } from "./verification-schemas";
import { verificationRoutes } from "./verification-contracts";
import { serve } from "../contract/serve";

/**
 * Verification of sealed documents. The owner's route reports everything about the seal of a stored
 * document; the public route takes any PDF and answers only whether this platform sealed it and
 * whether it changed since, so it discloses nothing about case files, names or other customers.
 */
export function verificationRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);
  const routes = verificationRoutes(ctx.config);

  serve(router, routes.getDocumentVerification, auth, async ({ params }, _req, res) => {
    // Another customer's case file or document answers exactly like a missing one.
    const doc = await ctx.db.document.findFirst({
      where: { id: params.documentId, caseFileId: params.id, caseFile: { customerId: principalOf(res).customerId } },
      select: { id: true, caseFileId: true, fileSha256: true, signedSha256: true, sealedAt: true },
    });
    if (!doc) throw new AppError("not_found", "Document not found");
    const report =
      doc.signedSha256 && (await ctx.storage.exists(doc.signedSha256)) ? (await inspectSeal(await ctx.storage.readAll(doc.signedSha256))).report : null;
    res.json(presentDocumentVerification(doc, report));
  });

  const limits = abuseLimits(ctx);
  // Counted before the upload is read: an address past its limit costs no memory.
  const bounded = async (req: Request, res: Response, next: NextFunction) => {
    await limits.verifyByAddress.consume(res, addressOf(req), "Too many verifications from this address; slow down");
    next();
  };

  serve(router, routes.verifyPdf, bounded, readPdfUpload(ctx.config.UPLOAD_MAX_FILE_BYTES), async (_input, req, res) => {
    const bytes = uploadedPdf(req);
    // The search and the CMS check run in a PDF inspector process, bounded by PDF_INSPECT_TIMEOUT_MS:
    // never on the gateway's event loop (issue 26, item 1). The file goes there through a private temporary file.
    const dir = await mkdtemp(path.join(os.tmpdir(), "esign-verify-"));
    let finding: Awaited<ReturnType<typeof ctx.pdfInspector.checkSeal>>;
    try {
      const file = path.join(dir, "upload.pdf");
      await writeFile(file, bytes, { mode: 0o600 });
      finding = await ctx.pdfInspector.checkSeal(file, addressTenant(addressOf(req)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    if (finding instanceof Error)
      throw new AppError("validation_failed", "The PDF is too costly to verify", [{ path: "file", code: "too_costly", message: finding.message }]);
    const answer = await publicVerdict(finding, async (sha256) => (await ctx.db.sealCertificate.count({ where: { sha256 } })) > 0);
    res.setHeader("Cache-Control", "no-store");
    res.json(answer);
  });
  return router;
}

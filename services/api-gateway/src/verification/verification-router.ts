import { Router, type NextFunction, type Request, type Response } from "express";
import { AppError } from "@esign/errors";
import { inspectSeal, verifyForPublic } from "@esign/seal";
import type { GatewayContext } from "../context";
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
    const answer = await verifyForPublic(bytes, async (sha256) => (await ctx.db.sealCertificate.count({ where: { sha256 } })) > 0);
    res.setHeader("Cache-Control", "no-store");
    res.json(answer);
  });
  return router;
}

import type { NextFunction, Request, Response } from "express";
import { AppError } from "@esign/errors";
import { contentDisposition } from "../../http/content-disposition";
import { visibleDocuments } from "../signing-view";
import { ZDocumentId } from "../signing-schemas";
import type { SigningKit } from "../signing-kit";

/** One document the signer may see, as a PDF (the sealed one once there is one). */
export function signingDocumentRoute(kit: SigningKit) {
  const { ctx, load, gate, identityMissing } = kit;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const sc = await load(req, res);
    gate(sc, true);
    const missing = identityMissing(req, sc);
    if (missing) throw missing;
    const id = ZDocumentId.safeParse(req.params.documentId);
    const visible = id.success ? visibleDocuments(sc).find((d) => d.doc.id === id.data) : undefined;
    if (!visible) throw new AppError("not_found", "Document not found");
    const { doc } = visible;
    res.setHeader("Content-Type", "application/pdf");
    res.setHeader("Content-Disposition", contentDisposition(doc.name));
    ctx.storage
      .read(doc.signedSha256 ?? doc.fileSha256)
      .once("error", (err) => (res.headersSent ? res.destroy(err) : next(err)))
      .pipe(res);
  };
}

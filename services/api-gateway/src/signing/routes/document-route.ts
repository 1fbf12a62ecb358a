import { AppError } from "@esign/errors";
import { contentDisposition } from "../../http/content-disposition";
import { visibleDocuments } from "../signing-view";
import type { SigningKit } from "../signing-kit";
import type { SigningHandler } from "../signing-contracts";

/** One document the signer may see, as a PDF (the sealed one once there is one). */
export function signingDocumentRoute(kit: SigningKit): SigningHandler<"getSigningDocument"> {
  const { ctx, load, gate, identityMissing } = kit;
  return async ({ params }, req, res, next) => {
    const sc = await load(params.token, res);
    gate(sc, true);
    const missing = identityMissing(req, sc);
    if (missing) throw missing;
    const visible = visibleDocuments(sc).find((d) => d.doc.id === params.documentId);
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

import { Router } from "express";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { contentDisposition } from "../http/content-disposition";
import { documentNotFound, ownedCaseFile, ZId } from "./owned-casefile";
import { presentCaseFile } from "./present-casefile";
import { caseFileRoutes } from "./casefile-contracts";
import { serve } from "../http/serve-route";

/** Our own read paths under /send/api/v1; Penneo's /api/v1|v3 ones (penneo-routes.ts) answer the same shapes. */
export function caseFileReadRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);
  const routes = caseFileRoutes(ctx.config);

  serve(router, routes.getCaseFile, auth, async (req, res) => {
    res.json(presentCaseFile(await ownedCaseFile(ctx, principalOf(res).customerId, req.params.id)));
  });

  serve(router, routes.getDocumentFile, auth, async (req, res) => {
    const cf = await ownedCaseFile(ctx, principalOf(res).customerId, req.params.id);
    const documentId = ZId.safeParse(req.params.documentId);
    const doc = documentId.success ? cf.documents.find((d) => d.id === documentId.data) : undefined;
    if (!doc) throw documentNotFound();
    const sha = doc.signedSha256 ?? doc.fileSha256;
    res.setHeader("Content-Type", "application/pdf");
    res.setHeader("Content-Disposition", contentDisposition(doc.name));
    ctx.storage
      .read(sha)
      .on("error", (err) => res.destroy(err))
      .pipe(res);
  });
  return router;
}

import { Router } from "express";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { contentDisposition } from "../http/content-disposition";
import { documentNotFound, ownedCaseFile } from "./owned-casefile";
import { presentCaseFile } from "./present-casefile";
import { caseFileRoutes } from "./casefile-contracts";
import { serve } from "../contract/serve";

/** Our own read paths under /send/api/v1; Penneo's /api/v1|v3 ones (penneo-routes.ts) answer the same shapes. */
export function caseFileReadRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);
  const routes = caseFileRoutes(ctx.config);

  serve(router, routes.getCaseFile, auth, async ({ params }, _req, res) => {
    res.json(presentCaseFile(await ownedCaseFile(ctx, principalOf(res).customerId, params.id)));
  });

  serve(router, routes.getDocumentFile, auth, async ({ params }, _req, res) => {
    const cf = await ownedCaseFile(ctx, principalOf(res).customerId, params.id);
    const doc = cf.documents.find((d) => d.id === params.documentId);
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

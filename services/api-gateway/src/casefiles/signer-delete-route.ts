import { Router } from "express";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { requestIdOf } from "../http/request-context";
import { userAudit } from "../http/request-evidence";
import { caseFileRoutes } from "./casefile-contracts";
import { serve } from "../contract/serve";
import { deleteSigner } from "./delete-signer";

/** DELETE /send/api/v1/casefiles/{id}/signers/{signerId}: see deleteSigner (Penneo's path answers the same). */
export function signerDeleteRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);

  serve(router, caseFileRoutes(ctx.config).deleteSigner, auth, async ({ params }, req, res) => {
    const { customerId, userId } = principalOf(res);
    const status = await deleteSigner(ctx.db, { customerId, caseFileId: params.id, signerId: params.signerId, audit: userAudit(userId, req) });
    ctx.logger.info("signer deleted", { requestId: requestIdOf(res), signerId: params.signerId, caseFileId: params.id, caseFileStatus: status });
    res.status(204).end();
  });
  return router;
}

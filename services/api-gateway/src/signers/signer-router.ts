import { Router } from "express";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { requestIdOf } from "../http/request-context";
import { actingUser } from "../casefiles/acting-user";
import { PENNEO_API_VERSIONS } from "../casefiles/casefile-contracts";
import { deleteSigner } from "../casefiles/delete-signer";
import { ownedSigner } from "../casefiles/owned-casefile";
import { presentSigner, presentSigningRequest } from "../casefiles/present-casefile";
import { serve } from "../contract/serve";
import { signerRoutes } from "./signer-contracts";
import { addSigner, updateSigner } from "./signer-changes";
import { resendSigningRequest, signingLinkOf, updateSigningRequest } from "./signing-request-changes";

/**
 * Signers and signing requests after creation, at Penneo's paths under /api/v1 and /api/v3 (issue 24,
 * item 4): add, change and delete signers; read and change a signing request, send it again, read its
 * link. Another customer's ids answer 404 like missing ones.
 */
export function signerRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);

  for (const v of PENNEO_API_VERSIONS) {
    const routes = signerRoutes(v);

    serve(router, routes.addSigner, auth, async ({ params, body }, req, res) => {
      const signer = await addSigner(ctx, actingUser(req, res), params.id, body);
      ctx.logger.info("signer added", { requestId: requestIdOf(res), caseFileId: params.id, signerId: signer.id });
      res.status(201).json(presentSigner(signer));
    });

    serve(router, routes.updateSigner, auth, async ({ params, body }, req, res) => {
      res.json(presentSigner(await updateSigner(ctx, actingUser(req, res), params.id, params.signerId, body)));
    });

    serve(router, routes.deleteSigner, auth, async ({ params }, req, res) => {
      const actor = actingUser(req, res);
      await deleteSigner(ctx.db, { customerId: actor.customerId, caseFileId: params.id, signerId: params.signerId, audit: actor.audit });
      ctx.logger.info("signer deleted", { requestId: requestIdOf(res), caseFileId: params.id, signerId: params.signerId });
      res.status(204).end();
    });

    serve(router, routes.getSigningRequest, auth, async ({ params }, _req, res) => {
      res.json(presentSigningRequest(await ownedSigner(ctx, principalOf(res).customerId, params.id)));
    });

    serve(router, routes.updateSigningRequest, auth, async ({ params, body }, req, res) => {
      res.json(presentSigningRequest(await updateSigningRequest(ctx, actingUser(req, res), params.id, body)));
    });

    serve(router, routes.sendSigningRequest, auth, async ({ params }, req, res) => {
      const signer = await resendSigningRequest(ctx, actingUser(req, res), params.id);
      ctx.logger.info("signing request to be sent again", { requestId: requestIdOf(res), signerId: signer.id });
      res.json(presentSigningRequest(signer));
    });

    serve(router, routes.getSigningLink, auth, async ({ params }, _req, res) => {
      res.json([await signingLinkOf(ctx, principalOf(res).customerId, params.id)]);
    });
  }
  return router;
}

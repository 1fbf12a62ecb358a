import { Router } from "express";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { actingUser } from "../casefiles/acting-user";
import { PENNEO_API_VERSIONS } from "../casefiles/casefile-contracts";
import { ownedCaseFile } from "../casefiles/owned-casefile";
import { presentCopyRecipient } from "../casefiles/present-casefile";
import { serve } from "../contract/serve";
import { recipientRoutes } from "./recipient-contracts";
import { addRecipient, deleteRecipient, recipientNotFound, updateRecipient } from "./recipient-changes";

/**
 * Copy recipients at Penneo's paths under /api/v1 and /api/v3 (issue 24, item 5): list, read, add,
 * change, remove. Another customer's ids answer 404 like missing ones.
 */
export function recipientRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);

  for (const v of PENNEO_API_VERSIONS) {
    const routes = recipientRoutes(v);

    serve(router, routes.listRecipients, auth, async ({ params }, _req, res) => {
      res.json((await ownedCaseFile(ctx, principalOf(res).customerId, params.id)).ccRecipients.map(presentCopyRecipient));
    });

    serve(router, routes.getRecipient, auth, async ({ params }, _req, res) => {
      const recipient = (await ownedCaseFile(ctx, principalOf(res).customerId, params.id)).ccRecipients.find((r) => r.id === params.recipientId);
      if (!recipient) throw recipientNotFound();
      res.json(presentCopyRecipient(recipient));
    });

    serve(router, routes.addRecipient, auth, async ({ params, body }, req, res) => {
      res.status(201).json(presentCopyRecipient(await addRecipient(ctx, actingUser(req, res), params.id, body)));
    });

    serve(router, routes.updateRecipient, auth, async ({ params, body }, req, res) => {
      res.json(presentCopyRecipient(await updateRecipient(ctx, actingUser(req, res), params.id, params.recipientId, body)));
    });

    serve(router, routes.deleteRecipient, auth, async ({ params }, req, res) => {
      await deleteRecipient(ctx, actingUser(req, res), params.id, params.recipientId);
      res.status(204).end();
    });
  }
  return router;
}

import { Router } from "express";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { userAudit } from "../auth/user-audit";
import { requestIdOf } from "../http/request-context";
import { PENNEO_API_VERSIONS } from "../casefiles/casefile-contracts";
import { ownedCaseFile } from "../casefiles/owned-casefile";
import { presentCaseFile } from "../casefiles/present-casefile";
import { serve } from "../contract/serve";
import { archiveRoutes } from "./archive-contracts";
import { listCaseFiles, listDocuments } from "./archive-list";
import { restoreCaseFile, sendDraft, sendErrors, updateCaseFile } from "./casefile-actions";

/**
 * The archive at Penneo's paths, for every API version its clients use: case files listed and
 * searched (as sdk-net and sdk-php filter, sort and page), documents by title and metaData, a case
 * file's update, a draft's send and activate, the recycle bin's restore, and what would stop a send.
 * Tenancy as everywhere: another customer's id answers 404, and lists hold the caller's customer only.
 */
export function archiveRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);

  for (const v of PENNEO_API_VERSIONS) {
    const routes = archiveRoutes(v);

    serve(router, routes.listCaseFiles, auth, async ({ query }, req, res) => {
      res.json(await listCaseFiles(ctx, req, res, principalOf(res).customerId, query));
    });

    serve(router, routes.listDocuments, auth, async ({ query }, req, res) => {
      res.json(await listDocuments(ctx, req, res, principalOf(res).customerId, query));
    });

    serve(router, routes.updateCaseFile, auth, async ({ params: { id }, body }, req, res) => {
      const { customerId } = principalOf(res);
      await updateCaseFile(ctx, customerId, id, body, userAudit(req, res));
      res.json(presentCaseFile(await ownedCaseFile(ctx, customerId, id)));
    });

    for (const [contract, mails] of [
      [routes.sendCaseFile, true],
      [routes.activateCaseFile, false],
    ] as const) {
      serve(router, contract, auth, async ({ params: { id } }, req, res) => {
        const { customerId } = principalOf(res);
        await sendDraft(ctx, customerId, id, mails, userAudit(req, res));
        ctx.logger.info(mails ? "draft sent" : "draft activated", { requestId: requestIdOf(res), caseFileId: id, customerId });
        res.json(presentCaseFile(await ownedCaseFile(ctx, customerId, id)));
      });
    }

    serve(router, routes.restoreCaseFile, auth, async ({ params: { id } }, req, res) => {
      const { customerId } = principalOf(res);
      await restoreCaseFile(ctx, customerId, id, userAudit(req, res));
      ctx.logger.info("case file restored", { requestId: requestIdOf(res), caseFileId: id, customerId });
      res.json(presentCaseFile(await ownedCaseFile(ctx, customerId, id)));
    });

    serve(router, routes.caseFileErrors, auth, async ({ params: { id } }, _req, res) => {
      res.json(await sendErrors(ctx, principalOf(res).customerId, id));
    });
  }
  return router;
}

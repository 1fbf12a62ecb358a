import { Router } from "express";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { userAudit } from "../auth/user-audit";
import { PENNEO_API_VERSIONS } from "../casefiles/casefile-contracts";
import { presentCaseFile } from "../casefiles/present-casefile";
import { containsPattern, listPage } from "../contract/list-page";
import { listWindow } from "../contract/list-query";
import { serve } from "../contract/serve";
import { caseFilesInFolder } from "./folder-casefiles";
import { memberOf, viewerOf } from "../auth/viewer";
import { folderShareRoutes } from "./folder-share-contracts";
import { folderShares, setFolderShares } from "./folder-shares";
import { folderRoutes } from "./folder-contracts";
import { createFolder, deleteFolder, folderOfCaseFile, getFolder, listFolders, setCaseFileFolder, updateFolder } from "./folder-store";
import { presentFolder } from "./present-folder";

/** `parent` or its alias `parentId`, and which of the two the request used (errors name it). */
function parentOf(body: { parent?: number | null; parentId?: number | null }): { field: string; id: number | null } | undefined {
  if (body.parent !== undefined) return { field: "parent", id: body.parent };
  if (body.parentId !== undefined) return { field: "parentId", id: body.parentId };
  return undefined;
}

/**
 * Penneo's folders at its paths (`/api/{v1,v3}/folders...`, `casefiles/{id}/folders`): the tree,
 * and a case file in at most one folder, filed with sdk-net's POST/DELETE or sdk-php's LINK/UNLINK.
 * Another customer's folder or case file answers 404 exactly like a missing one.
 */
export function folderRouter(ctx: GatewayContext): Router {
  const router = Router();
  const auth = authenticate(ctx);
  const adminOnly = authenticate(ctx, { admin: true });
  const maxPage = ctx.config.LIST_MAX_PAGE_SIZE;

  for (const v of PENNEO_API_VERSIONS) {
    const routes = folderRoutes(v);

    serve(router, routes.listFolders, auth, async ({ query }, req, res) => {
      const window = listWindow(query, [{ field: "id", direction: "asc" }], maxPage);
      const rows = await listFolders(ctx, {
        customerId: principalOf(res).customerId,
        ...(query.title !== undefined ? { titleContains: containsPattern(query.title) } : {}),
        ...(query.parentId !== undefined ? { parentId: query.parentId } : {}),
        window,
      });
      res.json(listPage(req, res, ctx.config.PUBLIC_BASE_URL, window, rows).map(presentFolder));
    });

    serve(router, routes.createFolder, auth, async ({ body }, _req, res) => {
      const parent = parentOf(body);
      const under = parent && parent.id !== null ? { field: parent.field, id: parent.id } : null;
      const folder = await createFolder(ctx, principalOf(res).customerId, body.title, under);
      res.status(201).json(presentFolder(folder));
    });

    serve(router, routes.getFolder, auth, async ({ params }, _req, res) => {
      res.json(presentFolder(await getFolder(ctx, principalOf(res).customerId, params.id)));
    });

    serve(router, routes.updateFolder, auth, async ({ params, body }, _req, res) => {
      const parent = parentOf(body);
      const folder = await updateFolder(ctx, principalOf(res).customerId, params.id, {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(parent !== undefined ? { parent } : {}),
      });
      res.json(presentFolder(folder));
    });

    serve(router, routes.deleteFolder, auth, async ({ params }, req, res) => {
      await deleteFolder(ctx, principalOf(res).customerId, params.id, userAudit(req, res));
      res.status(204).end();
    });

    serve(router, routes.linkCaseFile, auth, async ({ params }, req, res) => {
      await setCaseFileFolder(ctx, principalOf(res).customerId, params.caseFileId, { folderId: params.id, link: true }, userAudit(req, res));
      res.status(204).end();
    });

    serve(router, routes.unlinkCaseFile, auth, async ({ params }, req, res) => {
      await setCaseFileFolder(ctx, principalOf(res).customerId, params.caseFileId, { folderId: params.id, link: false }, userAudit(req, res));
      res.status(204).end();
    });

    serve(router, routes.listFolderCaseFiles, auth, async ({ params, query }, req, res) => {
      const { customerId } = principalOf(res);
      const folder = await getFolder(ctx, customerId, params.id);
      const window = listWindow(query, [{ field: "id", direction: "asc" }], maxPage);
      const rows = await caseFilesInFolder(ctx, customerId, folder.id, memberOf(res), window);
      res.json(listPage(req, res, ctx.config.PUBLIC_BASE_URL, window, rows).map(presentCaseFile));
    });

    // sdk-net 7.1.0 CaseFile.GetFoldersAsync: a list, here of at most one.
    serve(router, routes.caseFileFolders, auth, async ({ params }, _req, res) => {
      const folder = await folderOfCaseFile(ctx, principalOf(res).customerId, params.id);
      res.json(folder ? [presentFolder(folder)] : []);
    });
  }
  const shares = folderShareRoutes();
  serve(router, shares.getFolderShares, auth, async ({ params }, _req, res) => {
    const folder = await getFolder(ctx, viewerOf(res).customerId, params.id);
    res.json({ userIds: await folderShares(ctx, folder.id) });
  });

  serve(router, shares.setFolderShares, adminOnly, async ({ params, body }, _req, res) => {
    const { customerId } = viewerOf(res);
    const folder = await getFolder(ctx, customerId, params.id);
    res.json({ userIds: await setFolderShares(ctx, customerId, folder.id, body.userIds) });
  });

  return router;
}

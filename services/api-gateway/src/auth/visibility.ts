import type { Request } from "express";
import type { Prisma } from "@esign/db";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";
import type { Viewer } from "./viewer";

/*
 * Which case files a member may see and change: those they created, and those in folders an admin
 * shared with them (FolderShare). Applied in one place for every route that names a case file in its
 * path, whatever the feature (caseFileGuard, run by the authenticator), and by the list queries of
 * the archive and of a folder's case files (memberOf in viewer.ts). A case file a member may not see
 * answers exactly like a missing one: 404, existence not disclosed.
 */

/** The Prisma condition on CaseFile of what a member sees (an admin: everything of the customer). */
export function visibleCaseFiles(viewer: Pick<Viewer, "userId" | "role">): Prisma.CaseFileWhereInput {
  if (viewer.role === "admin") return {};
  return { OR: [{ userId: viewer.userId }, { folder: { shares: { some: { userId: viewer.userId } } } }] };
}

type Named = "caseFile" | "document" | "signer";

/**
 * The paths that name a case file, or something of exactly one case file, by the contract's OpenAPI
 * path: every route under them is guarded, including routes added later.
 */
const NAMING_PATHS: ReadonlyArray<{ pattern: RegExp; names: Named; param: string }> = [
  { pattern: /^\/api\/v\d+\/folders\/\{id\}\/casefiles\/\{caseFileId\}/, names: "caseFile", param: "caseFileId" },
  { pattern: /^(\/send)?\/api\/v\d+\/casefiles\/\{id\}/, names: "caseFile", param: "id" },
  { pattern: /^\/api\/v\d+\/documents\/\{documentId\}/, names: "document", param: "documentId" },
  { pattern: /^\/api\/v\d+\/signingrequests\/\{id\}/, names: "signer", param: "id" },
];

const NOT_FOUND: Record<Named, string> = { caseFile: "Case file not found", document: "Document not found", signer: "Signing request not found" };

async function visible(ctx: GatewayContext, viewer: Viewer, names: Named, id: number): Promise<boolean> {
  const caseFile = { customerId: viewer.customerId, ...visibleCaseFiles(viewer) };
  if (names === "caseFile") return (await ctx.db.caseFile.count({ where: { id, ...caseFile } })) > 0;
  if (names === "document") return (await ctx.db.document.count({ where: { id, caseFile } })) > 0;
  return (await ctx.db.signer.count({ where: { id, caseFile } })) > 0;
}

/**
 * Refuses (404) a member's request for a case file they may not see. Admins pass without a query: the
 * routes themselves keep every customer to their own case files. A parameter that is not an id passes
 * too: the route's own validation answers it.
 */
export async function caseFileGuard(ctx: GatewayContext, viewer: Viewer, contractPath: string | undefined, req: Request): Promise<void> {
  if (viewer.role === "admin" || !contractPath) return;
  const named = NAMING_PATHS.find((p) => p.pattern.test(contractPath));
  if (!named) return;
  const raw = req.params[named.param];
  if (typeof raw !== "string" || !/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2_147_483_647) return;
  if (!(await visible(ctx, viewer, named.names, Number(raw)))) throw new AppError("not_found", NOT_FOUND[named.names]);
}

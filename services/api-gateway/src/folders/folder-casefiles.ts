import type { Prisma } from "@esign/db";
import type { GatewayContext } from "../context";
import { visibleCaseFiles } from "../auth/visibility";
import type { ListWindow } from "../contract/list-query";
import { CASEFILE_RELATIONS, type FullCaseFile } from "../casefiles/owned-casefile";
import type { CASEFILE_SORTABLE } from "./folder-schemas";

const ORDER_COLUMN = { id: "id", title: "title", created: "createdAt" } as const;

/**
 * One page of the case files in a folder (one more than the page: it tells there is a next one),
 * read with what their answer presents. Case files in the recycle bin (deleted) are left out. By
 * the (folderId, id) index.
 */
export function caseFilesInFolder(
  ctx: GatewayContext,
  customerId: number,
  folderId: number,
  /** A member sees only their own case files in it, unless the folder is shared with them. */
  member: { userId: number } | undefined,
  window: ListWindow<(typeof CASEFILE_SORTABLE)[number]>,
): Promise<FullCaseFile[]> {
  const orderBy: Prisma.CaseFileOrderByWithRelationInput[] = window.sort.map(({ field, direction }) => ({ [ORDER_COLUMN[field]]: direction }));
  if (!window.sort.some((s) => s.field === "id")) orderBy.push({ id: "asc" });
  return ctx.db.caseFile.findMany({
    where: { customerId, folderId, deletedAt: null, ...(member ? visibleCaseFiles({ ...member, role: "member" }) : {}) },
    include: CASEFILE_RELATIONS,
    orderBy,
    skip: window.offset,
    take: window.limit + 1,
  });
}

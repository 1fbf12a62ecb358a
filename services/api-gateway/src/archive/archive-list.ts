import type { Request, Response } from "express";
import { memberOf } from "../auth/viewer";
import { run, sqlPool } from "@esign/db";
import type { GatewayContext } from "../context";
import { listWindow, type SortKey } from "../contract/list-query";
import { containsPattern, listPage } from "../contract/list-page";
import { ownedCaseFiles, ownedDocuments } from "../casefiles/owned-casefile";
import { presentCaseFile, presentDocument } from "../casefiles/present-casefile";
import type { CaseFileView, DocumentView } from "../casefiles/casefile-schemas";
import type { CaseFileListQuery, CaseFileSortField, DocumentListQuery, DocumentSortField } from "./archive-schemas";
import {
  orderIdsSql,
  searchCaseFilesSql,
  searchDocumentsSql,
  searchRecentSql,
  searchUnorderedSql,
  type CaseFileColumn,
  type CaseFileSearch,
  type DocumentColumn,
  type RangeColumn,
} from "./search.sql";

/** A page of a list and the Link header that names its neighbours (none when it all fits one page). */
const SORT_COLUMN: Record<CaseFileSortField, CaseFileColumn> = {
  created: "createdAt",
  title: "title",
  completed: "completedAt",
  status: "status",
  id: "id",
  reference: "reference",
  activated: "sentAt",
  expireAt: "expireAt",
};

/** Documents are created with their case file, so their creation order is their id's. */
const DOCUMENT_SORT_COLUMN: Record<DocumentSortField, DocumentColumn> = { created: "id", title: "title", id: "id" };

/** Newest first, as Penneo's readme lists them; documented in the route's description. */
const DEFAULT_SORT: SortKey<"created">[] = [{ field: "created", direction: "desc" }];

/** Ends an order with the id (in the direction of its last key) unless it has it: equal keys never straddle two pages in two orders. */
function withIdLast<C extends string>(order: { column: C; direction: "asc" | "desc" }[]): { column: C | "id"; direction: "asc" | "desc" }[] {
  if (order.some((o) => o.column === "id")) return order;
  return [...order, { column: "id", direction: order[order.length - 1]?.direction ?? "desc" }];
}

const RANGES: readonly [RangeColumn, keyof CaseFileListQuery, keyof CaseFileListQuery][] = [
  ["createdAt", "createdAfter", "createdBefore"],
  ["completedAt", "completedAfter", "completedBefore"],
  ["sentAt", "activatedAfter", "activatedBefore"],
  ["expireAt", "expiresAfter", "expiresBefore"],
  ["updatedAt", "updatedAfter", "updatedBefore"],
];

/**
 * A title search ordered by created looks for its page among this many newest (or oldest) case
 * files first (a miss costs reading that many titles), when its page lies within a tenth of them.
 */
const RECENT_WINDOW = 4000;
/**
 * Matches among them that make a title common enough for the walk along the order's index (it
 * meets a match at least every RECENT_WINDOW / COMMON case files); fewer: the trigram index.
 */
const COMMON = 4;
/** Title searches that match at most this many are ordered from their matches (searchUnorderedSql). */
const FEW_TITLES = 5000;

/** Orders the index (customerId, createdAt, id) walks: created, then id. */
const byCreated = (order: CaseFileSearch["order"]) => order[0]?.column === "createdAt" && order.slice(1).every((o) => o.column === "id");

/**
 * The ids of the page. A title search is two questions the planner cannot weigh, having no good
 * estimate of how many titles match (pg_trgm's): the trigram index, or a walk along the order's
 * index that meets matches as often as they come. Ordered by created, the page is first looked for
 * among the newest case files: found there (a common title), or common enough there for the walk;
 * else (a rare title, or another order) every match comes from the trigram index and is ordered,
 * unless there are more than FEW_TITLES, which the walk then meets often enough.
 */
async function searchIds(ctx: GatewayContext, search: CaseFileSearch): Promise<{ id: number }[]> {
  const pool = sqlPool(ctx.db);
  if (search.titlePattern !== undefined) {
    if (byCreated(search.order) && search.offset === 0 && search.limit * 10 <= RECENT_WINDOW) {
      const recent = await run(pool, searchRecentSql, { ...search, window: RECENT_WINDOW });
      if (recent.length === search.limit) return recent;
      if (recent.length >= COMMON) return run(pool, searchCaseFilesSql, search);
    }
    const matches = await run(pool, searchUnorderedSql, { ...search, cap: FEW_TITLES });
    if (matches.length <= FEW_TITLES) return matches.length === 0 ? [] : run(pool, orderIdsSql, { ...search, among: matches.map((m) => m.id) });
  }
  return run(pool, searchCaseFilesSql, search);
}

/** GET casefiles: one page of the customer's case files, filtered and sorted as asked, whole. */
export async function listCaseFiles(ctx: GatewayContext, req: Request, res: Response, customerId: number, q: CaseFileListQuery): Promise<CaseFileView[]> {
  const window = listWindow<CaseFileSortField>(q, DEFAULT_SORT, ctx.config.LIST_MAX_PAGE_SIZE);
  const ranges = RANGES.map(([column, from, before]) => ({ column, from: q[from] as Date | undefined, before: q[before] as Date | undefined })).filter(
    (r) => r.from !== undefined || r.before !== undefined,
  );
  const member = memberOf(res);
  const search: CaseFileSearch = {
    customerId,
    ...(member ? { member } : {}),
    ...(q.title !== undefined && q.title !== "" ? { titlePattern: containsPattern(q.title) } : {}),
    ...(q.metaData !== undefined ? { metaData: q.metaData } : {}),
    ...(q.reference !== undefined ? { reference: q.reference } : {}),
    ...(q.status !== undefined ? { statuses: q.status } : {}),
    ...(q.deleted !== undefined ? { deleted: q.deleted } : {}),
    ...(q.folderIds !== undefined ? { folderIds: q.folderIds } : {}),
    ...(q.ids !== undefined ? { ids: q.ids } : {}),
    ranges,
    order: withIdLast(window.sort.map((s) => ({ column: SORT_COLUMN[s.field], direction: s.direction }))),
    offset: window.offset,
    limit: window.limit + 1,
  };
  const ids = listPage(req, res, ctx.config.PUBLIC_BASE_URL, window, await searchIds(ctx, search)).map((r) => r.id);
  return (await ownedCaseFiles(ctx, customerId, ids)).map(presentCaseFile);
}

/** GET documents: one page of the documents of the customer's case files. */
export async function listDocuments(ctx: GatewayContext, req: Request, res: Response, customerId: number, q: DocumentListQuery): Promise<DocumentView[]> {
  const window = listWindow<DocumentSortField>(q, DEFAULT_SORT, ctx.config.LIST_MAX_PAGE_SIZE);
  const member = memberOf(res);
  const rows = await run(sqlPool(ctx.db), searchDocumentsSql, {
    customerId,
    ...(member ? { member } : {}),
    ...(q.title !== undefined && q.title !== "" ? { titlePattern: containsPattern(q.title) } : {}),
    ...(q.metaData !== undefined ? { metaData: q.metaData } : {}),
    order: withIdLast(window.sort.map((s) => ({ column: DOCUMENT_SORT_COLUMN[s.field], direction: s.direction }))),
    offset: window.offset,
    limit: window.limit + 1,
  });
  const ids = listPage(req, res, ctx.config.PUBLIC_BASE_URL, window, rows).map((r) => r.id);
  return (await ownedDocuments(ctx, customerId, ids)).map(({ document, caseFile }) => presentDocument(document, caseFile));
}

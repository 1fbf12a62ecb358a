import { anyOf, defineStatement, qb, type DB, type ExpressionBuilder, type SelectQueryBuilder } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";

/*
 * The list queries of GET casefiles and GET documents: the ids of one page, filtered and ordered as
 * asked (archive-list.ts turns a request into these arguments); the page's case files are then read
 * whole by id. Built per call: which filters and which order change the statement's text.
 *
 * The indexes they rely on (migration 20261126100000_archive_search): (customerId, createdAt, id)
 * for the default order and created ranges, (customerId, status, createdAt, id), (customerId,
 * status, completedAt, id), (customerId, md5(metaData)) and (customerId, md5(reference)) for the exact
 * matches, and the pg_trgm index on title for "contains".
 */

type Direction = "asc" | "desc";
export type CaseFileColumn = "createdAt" | "title" | "completedAt" | "status" | "id" | "reference" | "sentAt" | "expireAt";
export type RangeColumn = "createdAt" | "completedAt" | "sentAt" | "expireAt" | "updatedAt";

export interface CaseFileSearch {
  customerId: number;
  /** A member: only their own case files and those in folders shared with them (auth/visibility.ts). */
  member?: { userId: number };
  /** A LIKE pattern (escaped by the caller): title contains, case-insensitive. */
  titlePattern?: string;
  metaData?: string;
  reference?: string;
  /** Any of these statuses; absent: any but deleted (3), unless `deleted` says otherwise. */
  statuses?: number[];
  /** true: only deleted (the recycle bin); false: none deleted. */
  deleted?: boolean;
  folderIds?: number[];
  ids?: number[];
  /** At or after `from`, before `before`. */
  ranges: { column: RangeColumn; from?: Date; before?: Date }[];
  /** The order; the caller ends it with id so that pages never overlap. */
  order: { column: CaseFileColumn; direction: Direction }[];
  offset: number;
  /** Rows to read: the page's size plus one, which tells whether a next page exists. */
  limit: number;
}

type TextColumn = "CaseFile.metaData" | "CaseFile.reference" | "Document.metaData";

/** md5(column) = md5(value) (the index key) and column = value (the match itself). */
const exactly = (column: TextColumn, value: string) => (eb: ExpressionBuilder<DB, "CaseFile" | "Document">) =>
  eb.and([
    eb(eb.fn<string>("md5", [eb.ref(column)]), "=", eb.fn<string>("md5", [eb.cast<string>(eb.val(value), "text")])),
    eb(eb.ref(column), "=", eb.val(value)),
  ]);

/** A member's case files: created by them, or in a folder shared with them. */
const visibleTo = (userId: number) => (eb: ExpressionBuilder<DB, "CaseFile" | "Document">) =>
  eb.or([
    eb("CaseFile.userId", "=", userId),
    eb("CaseFile.folderId", "in", eb.selectFrom("FolderShare").select("FolderShare.folderId").where("FolderShare.userId", "=", userId)),
  ]);

/** The search's conditions (everything but its order and window) on a query of CaseFile; `title` false: all but the title's. */
function filtered<O>(q: SelectQueryBuilder<DB, "CaseFile", O>, s: CaseFileSearch, title = true): SelectQueryBuilder<DB, "CaseFile", O> {
  let f = q.where("CaseFile.customerId", "=", s.customerId);
  if (s.member) f = f.where(visibleTo(s.member.userId));
  if (title && s.titlePattern !== undefined) f = f.where("CaseFile.title", "ilike", s.titlePattern);
  if (s.metaData !== undefined) f = f.where(exactly("CaseFile.metaData", s.metaData));
  if (s.reference !== undefined) f = f.where(exactly("CaseFile.reference", s.reference));
  if (s.statuses !== undefined) f = f.where("CaseFile.status", "in", s.statuses);
  else if (s.deleted !== true) f = f.where("CaseFile.status", "<>", CASEFILE_STATUS.deleted);
  if (s.deleted === true) f = f.where("CaseFile.status", "=", CASEFILE_STATUS.deleted);
  if (s.deleted === false && s.statuses !== undefined) f = f.where("CaseFile.status", "<>", CASEFILE_STATUS.deleted);
  if (s.folderIds !== undefined && s.folderIds.length > 0) f = f.where("CaseFile.folderId", "in", s.folderIds);
  if (s.ids !== undefined && s.ids.length > 0) f = f.where("CaseFile.id", "in", s.ids);
  for (const r of s.ranges) {
    if (r.from) f = f.where(`CaseFile.${r.column}`, ">=", r.from);
    if (r.before) f = f.where(`CaseFile.${r.column}`, "<", r.before);
  }
  return f;
}

const ordered = <O>(q: SelectQueryBuilder<DB, "CaseFile", O>, s: CaseFileSearch) => s.order.reduce((o, k) => o.orderBy(`CaseFile.${k.column}`, k.direction), q);

const SAMPLE_SEARCH: CaseFileSearch = {
  customerId: 1,
  member: { userId: 1 },
  titlePattern: "%contract%",
  metaData: "m",
  reference: "r",
  statuses: [1, 5],
  deleted: false,
  folderIds: [1],
  ids: [1, 2],
  ranges: [{ column: "createdAt", from: new Date(0), before: new Date(1) }],
  order: [
    { column: "createdAt", direction: "desc" },
    { column: "id", direction: "desc" },
  ],
  offset: 0,
  limit: 21,
};

/**
 * The ids of one page of a customer's case files.
 *
 * Locks: nothing: a read of committed rows; a case file changing meanwhile shows in the next page.
 */
export const searchCaseFilesSql = defineStatement("search-case-files", SAMPLE_SEARCH, (s: CaseFileSearch) =>
  ordered(filtered(qb.selectFrom("CaseFile").select("CaseFile.id"), s), s)
    .offset(s.offset)
    .limit(s.limit),
);

/**
 * Title contains, ordered by created (or id): the page among the `window` newest (or oldest) case
 * files the other filters leave, walked along the order's index; a complete page from them is the
 * page (no match beyond them can come first). A title in many case files fills its page within a
 * few thousand; one in few does not, and the caller turns to its trigram index (searchUnorderedSql).
 *
 * Locks: nothing: a read of committed rows.
 */
export const searchRecentSql = defineStatement("search-case-files-recent", { ...SAMPLE_SEARCH, window: 10_000 }, (s: CaseFileSearch & { window: number }) =>
  qb
    .selectFrom(
      ordered(filtered(qb.selectFrom("CaseFile").select(["CaseFile.id", "CaseFile.title", "CaseFile.createdAt"]), s, false), s)
        .limit(s.window)
        .as("recent"),
    )
    .select("recent.id")
    .where("recent.title", "ilike", s.titlePattern ?? "%")
    .$call((q) => s.order.reduce((o, k) => o.orderBy(k.column === "id" ? "recent.id" : "recent.createdAt", k.direction), q))
    .offset(s.offset)
    .limit(s.limit),
);

/**
 * Title contains: every match (at most `cap` + 1), in no order, so that the title's trigram index
 * finds them whatever the order asked for; the caller then orders the few it got (byIdsSql), or,
 * with more than `cap`, asks searchCaseFilesSql, whose walk along the order's index meets matches
 * often enough. A matching title and an order by created are two indexes the planner must choose
 * between on an estimate of how many titles match, which pg_trgm cannot make well: a name in 0.02%
 * of a million titles was planned as a walk through the order and took 0.2 s.
 *
 * Locks: nothing: a read of committed rows.
 */
export const searchUnorderedSql = defineStatement("search-case-files-unordered", { ...SAMPLE_SEARCH, cap: 5000 }, (s: CaseFileSearch & { cap: number }) =>
  filtered(qb.selectFrom("CaseFile").select("CaseFile.id"), s).limit(s.cap + 1),
);

/**
 * One page of the given case files (searchUnorderedSql's matches) in the search's order.
 *
 * Locks: nothing: a read of committed rows.
 */
export const orderIdsSql = defineStatement("order-case-file-ids", { ...SAMPLE_SEARCH, among: [1, 2] }, (s: CaseFileSearch & { among: number[] }) =>
  ordered(qb.selectFrom("CaseFile").select("CaseFile.id").where("CaseFile.id", "=", anyOf(s.among, "int")), s)
    .offset(s.offset)
    .limit(s.limit),
);

export type DocumentColumn = "id" | "title";

export interface DocumentSearch {
  customerId: number;
  member?: { userId: number };
  titlePattern?: string;
  metaData?: string;
  order: { column: DocumentColumn; direction: Direction }[];
  offset: number;
  limit: number;
}

/**
 * The ids of one page of the documents of a customer's case files (not those in the recycle bin).
 *
 * Locks: nothing: a read of committed rows.
 */
export const searchDocumentsSql = defineStatement(
  "search-documents",
  {
    customerId: 1,
    member: { userId: 1 },
    titlePattern: "%contract%",
    metaData: "m",
    order: [{ column: "id", direction: "desc" }],
    offset: 0,
    limit: 21,
  } as DocumentSearch,
  (s: DocumentSearch) => {
    let q = qb
      .selectFrom("Document")
      .innerJoin("CaseFile", "CaseFile.id", "Document.caseFileId")
      .select("Document.id")
      .where("CaseFile.customerId", "=", s.customerId)
      .where("CaseFile.status", "<>", CASEFILE_STATUS.deleted);
    if (s.member) q = q.where(visibleTo(s.member.userId));
    if (s.titlePattern !== undefined) q = q.where("Document.title", "ilike", s.titlePattern);
    if (s.metaData !== undefined) q = q.where(exactly("Document.metaData", s.metaData));
    for (const o of s.order) q = q.orderBy(`Document.${o.column}`, o.direction);
    return q.offset(s.offset).limit(s.limit);
  },
);

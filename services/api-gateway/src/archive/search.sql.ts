import { defineStatement, qb, type DB, type ExpressionBuilder } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";

/*
 * The list queries of GET casefiles and GET documents: the ids of one page, filtered and ordered as
 * asked (archive-list.ts turns a request into these arguments); the page's case files are then read
 * whole by id. Built per call: which filters and which order change the statement's text.
 *
 * The indexes they rely on (migration 20261126100000_archive_search): (customerId, createdAt, id)
 * for the default order and created ranges, (customerId, status, createdAt, id), (customerId,
 * completedAt, id), (customerId, md5(metaData)) and (customerId, md5(reference)) for the exact
 * matches, and the pg_trgm index on title for "contains".
 */

type Direction = "asc" | "desc";
export type CaseFileColumn = "createdAt" | "title" | "completedAt" | "status" | "id" | "reference" | "sentAt" | "expireAt";
export type RangeColumn = "createdAt" | "completedAt" | "sentAt" | "expireAt" | "updatedAt";

export interface CaseFileSearch {
  customerId: number;
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

/**
 * The ids of one page of a customer's case files.
 *
 * Locks: nothing: a read of committed rows; a case file changing meanwhile shows in the next page.
 */
export const searchCaseFilesSql = defineStatement(
  "search-case-files",
  {
    customerId: 1,
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
  } as CaseFileSearch,
  (s: CaseFileSearch) => {
    let q = qb.selectFrom("CaseFile").select("CaseFile.id").where("CaseFile.customerId", "=", s.customerId);
    if (s.titlePattern !== undefined) q = q.where("CaseFile.title", "ilike", s.titlePattern);
    if (s.metaData !== undefined) q = q.where(exactly("CaseFile.metaData", s.metaData));
    if (s.reference !== undefined) q = q.where(exactly("CaseFile.reference", s.reference));
    if (s.statuses !== undefined) q = q.where("CaseFile.status", "in", s.statuses);
    else if (s.deleted !== true) q = q.where("CaseFile.status", "<>", CASEFILE_STATUS.deleted);
    if (s.deleted === true) q = q.where("CaseFile.status", "=", CASEFILE_STATUS.deleted);
    if (s.deleted === false && s.statuses !== undefined) q = q.where("CaseFile.status", "<>", CASEFILE_STATUS.deleted);
    if (s.folderIds !== undefined && s.folderIds.length > 0) q = q.where("CaseFile.folderId", "in", s.folderIds);
    if (s.ids !== undefined && s.ids.length > 0) q = q.where("CaseFile.id", "in", s.ids);
    for (const r of s.ranges) {
      if (r.from) q = q.where(`CaseFile.${r.column}`, ">=", r.from);
      if (r.before) q = q.where(`CaseFile.${r.column}`, "<", r.before);
    }
    for (const o of s.order) q = q.orderBy(`CaseFile.${o.column}`, o.direction);
    return q.offset(s.offset).limit(s.limit);
  },
);

export type DocumentColumn = "id" | "title";

export interface DocumentSearch {
  customerId: number;
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
    if (s.titlePattern !== undefined) q = q.where("Document.title", "ilike", s.titlePattern);
    if (s.metaData !== undefined) q = q.where(exactly("Document.metaData", s.metaData));
    for (const o of s.order) q = q.orderBy(`Document.${o.column}`, o.direction);
    return q.offset(s.offset).limit(s.limit);
  },
);

import { z } from "zod";
import type { Api } from "./api";
import { readJson } from "./http";
import { ZCaseFile, ZDocument, type CaseFile, type Document } from "./schemas";

/** Penneo's paths of the case file archive (the API also answers them under /api/v1). */
export const ARCHIVE_CASE_FILES_PATH = "/api/v3/casefiles";
export const ARCHIVE_DOCUMENTS_PATH = "/api/v3/documents";

/** A date filter: a Date, or unix seconds. */
export type DateFilter = Date | number;

/** Paging and order of a list: pages are 1-based; `sort` as the API takes it (`created`, `-created`, `title,created`). */
export interface ListOptions {
  page?: number;
  /** Items per page (the server caps it at its LIST_MAX_PAGE_SIZE, default 1000). */
  perPage?: number;
  sort?: string;
  /** One per sort field, `asc` or `desc` (instead of `-field`). */
  order?: string;
  signal?: AbortSignal;
}

export interface CaseFileSearch extends ListOptions {
  /** Title contains this (case-insensitive). */
  title?: string;
  /** metaData is exactly this. */
  metaData?: string;
  /** reference is exactly this. */
  reference?: string;
  /** CASE_FILE_STATUS values; 3 lists the recycle bin. */
  status?: number | number[];
  /** true: only the recycle bin. */
  deleted?: boolean;
  folderIds?: number[];
  ids?: number[];
  createdAfter?: DateFilter;
  createdBefore?: DateFilter;
  completedAfter?: DateFilter;
  completedBefore?: DateFilter;
  activatedAfter?: DateFilter;
  activatedBefore?: DateFilter;
  expiresAfter?: DateFilter;
  expiresBefore?: DateFilter;
  updatedAfter?: DateFilter;
  updatedBefore?: DateFilter;
}

export interface DocumentSearch extends ListOptions {
  title?: string;
  metaData?: string;
}

/** One page, and the next page's number when there is one (the answer's Link header). */
export interface Page<T> {
  items: T[];
  nextPage?: number;
}

/** What PUT changes; absent fields stay as they are. Dates in unix seconds, `null` (or 0) unsets. */
export interface CaseFileUpdate {
  title?: string;
  language?: string | null;
  metaData?: string;
  reference?: string;
  sendAt?: number | null;
  expireAt?: number | null;
  visibilityMode?: 0 | 1;
  sensitiveData?: boolean;
  disableNotificationsOwner?: boolean;
  disableEmailAttachments?: boolean;
  signOnMeeting?: boolean;
}

const unix = (d: DateFilter) => String(d instanceof Date ? Math.floor(d.getTime() / 1000) : d);

function queryOf(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || key === "signal") continue;
    const name = key === "perPage" ? "per_page" : key;
    if (Array.isArray(value)) params.set(name, value.join(","));
    else if (value instanceof Date || (/(After|Before)$/.test(key) && typeof value === "number")) params.set(name, unix(value as DateFilter));
    else params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The page number of the Link header's rel="next", if any. */
function nextPageOf(res: Response): number | undefined {
  const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
  const page = next ? new URL(next).searchParams.get("page") : null;
  return page ? Number(page) : undefined;
}

const byId = (id: number) => `${ARCHIVE_CASE_FILES_PATH}/${encodeURIComponent(String(id))}`;

/**
 * The case file archive at Penneo's paths: search and list (paged), a case file's update, sending or
 * activating a draft, the recycle bin (delete, restore), and what would stop a send. Every call is
 * scoped to the client's customer: another customer's id is 404.
 */
export class CaseFiles {
  constructor(private readonly api: Api) {}

  /** One page of the customer's case files (newest first unless `sort` says otherwise; the recycle bin only with `status: 3` or `deleted: true`). */
  async list(search: CaseFileSearch = {}): Promise<Page<CaseFile>> {
    const req = { method: "GET", path: `${ARCHIVE_CASE_FILES_PATH}${queryOf({ ...search })}`, auth: "x-auth-token", signal: search.signal } as const;
    const res = await this.api.send(req);
    return { items: await readJson(res, z.array(ZCaseFile), "GET casefiles"), nextPage: nextPageOf(res) };
  }

  /** Every case file of a search, page by page (`perPage` per request). */
  async *iterate(search: CaseFileSearch = {}): AsyncGenerator<CaseFile> {
    let page: number | undefined = search.page ?? 1;
    while (page !== undefined) {
      const answer: Page<CaseFile> = await this.list({ ...search, page });
      yield* answer.items;
      page = answer.nextPage;
    }
  }

  /** One page of the documents of the customer's case files (not those in the recycle bin). */
  async listDocuments(search: DocumentSearch = {}): Promise<Page<Document>> {
    const res = await this.api.send({ method: "GET", path: `${ARCHIVE_DOCUMENTS_PATH}${queryOf({ ...search })}`, auth: "x-auth-token", signal: search.signal });
    return { items: await readJson(res, z.array(ZDocument), "GET documents"), nextPage: nextPageOf(res) };
  }

  /** A draft takes every field; once sent, a changed value is a 409 (EsignApiError, `errors` names the fields). */
  update(id: number, patch: CaseFileUpdate): Promise<CaseFile> {
    return this.api.json({ method: "PUT", path: byId(id), auth: "x-auth-token", json: patch }, ZCaseFile);
  }

  /** Sends a draft: at its sendAt (at once when unset), with the signing-request mails. 409 when it is no draft or cannot be sent (see `errors`). */
  send(id: number): Promise<CaseFile> {
    return this.api.json({ method: "PATCH", path: `${byId(id)}/send`, auth: "x-auth-token" }, ZCaseFile);
  }

  /** Activates a draft: the signing links work, no mail goes to the signers (hand the links out yourself). */
  activate(id: number): Promise<CaseFile> {
    return this.api.json({ method: "PATCH", path: `${byId(id)}/activate`, auth: "x-auth-token" }, ZCaseFile);
  }

  /** Moves the case file to the recycle bin (status 3; its links stop at once); repeatable. */
  delete(id: number): Promise<CaseFile> {
    return this.api.json({ method: "DELETE", path: byId(id), auth: "x-auth-token" }, ZCaseFile);
  }

  /** Takes a case file back out of the recycle bin, to the status it had. */
  restore(id: number): Promise<CaseFile> {
    return this.api.json({ method: "PATCH", path: `${byId(id)}/restore`, auth: "x-auth-token" }, ZCaseFile);
  }

  /** What would stop sending the case file now; `[]` when nothing would. */
  errors(id: number): Promise<string[]> {
    return this.api.json({ method: "GET", path: `${byId(id)}/errors`, auth: "x-auth-token" }, z.array(z.string()));
  }
}

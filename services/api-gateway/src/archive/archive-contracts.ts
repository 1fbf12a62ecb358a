import { z } from "zod";
import type { PenneoApiVersion } from "../casefiles/casefile-contracts";
import { ZCaseFile, ZCaseFileParams, ZDocumentList } from "../casefiles/casefile-schemas";
import { API_AUTH, errors, json, route, TAGS } from "../contract/route";
import { ZCaseFileErrors, ZCaseFileList, ZCaseFileListQuery, ZCaseFileUpdate, ZDocumentListQuery } from "./archive-schemas";

const AUTH_401 = "Missing or invalid credentials";
const NOT_FOUND = "No such case file for this customer";

/** The Link header of a page: `<url>; rel="first"`, `rel="prev"`, `rel="next"`, in the form sdk-net's PaginationUtil parses. */
const LINK = {
  Link: {
    description:
      'The first, previous and next pages (RFC 8288): one header, `<url>; rel="next"` entries, each URL with every filter once and `page` and `per_page`. Absent when the list fits one page',
    schema: z.string(),
  },
} as const;

const LIST_DESCRIPTION =
  "Paging: `page` (1-based) and `per_page` (sdk-net, sent twice, with `x-paginate: true`; follow the `Link` header), or `limit` and `offset` (sdk-php). " +
  "Sorting: `sort=created,title&order=desc,asc`, `sort=-created`, or empty. Every page holds at most LIST_MAX_PAGE_SIZE items (default 1000), an unpaged " +
  "request too (with a Link to the next page). An unknown filter is a 400 naming it.";

/**
 * The archive at Penneo's paths (`/api/{v1,v3}/...`, as casefiles/penneo-routes.ts): the case file
 * list and search, the document list, a case file's update, the draft actions, the recycle bin's
 * restore and a case file's sending errors.
 */
export function archiveRoutes<V extends PenneoApiVersion>(v: V) {
  const base = { tags: [TAGS.penneoApi], security: API_AUTH } as const;
  const cf = `/api/${v}/casefiles/{id}` as const;
  const action = (name: "send" | "activate" | "restore", summary: string, description: string) =>
    route({
      ...base,
      method: "patch",
      path: `${cf}/${name}`,
      operationId: `penneo${v}${name === "send" ? "Send" : name === "activate" ? "Activate" : "Restore"}CaseFile`,
      summary,
      // No body: sdk-net sends none, sdk-php an empty one under `Content-type: application/json`.
      description: `${description} No body.`,
      request: { params: ZCaseFileParams },
      responses: {
        200: { description: "The case file", content: json(ZCaseFile) },
        ...errors({ 401: AUTH_401, 404: NOT_FOUND, 409: "Its state does not allow it (the message says why; `errors` lists what stops a send)" }),
      },
    });
  return {
    listCaseFiles: route({
      ...base,
      method: "get",
      path: `/api/${v}/casefiles`,
      operationId: `penneo${v}ListCaseFiles`,
      summary: "List and search case files",
      description:
        `The customer's case files, newest first (created desc, then id desc) unless sorted otherwise; not those in the recycle bin unless \`status\` names 3 or \`deleted=true\`. ${LIST_DESCRIPTION} ` +
        "title: contains, case-insensitive; metaData, reference: exact; After: at or after, Before: before.",
      request: { query: ZCaseFileListQuery },
      responses: {
        200: { description: "A JSON array of case files", content: json(ZCaseFileList), headers: LINK },
        ...errors({ 400: "A filter, page or sort that is not valid (every failing one is named)", 401: AUTH_401 }),
      },
    }),
    listDocuments: route({
      ...base,
      method: "get",
      path: `/api/${v}/documents`,
      operationId: `penneo${v}ListAllDocuments`,
      summary: "List and search documents",
      description: `The documents of the customer's case files (not those in the recycle bin), newest first. ${LIST_DESCRIPTION} title: contains, case-insensitive; metaData: exact.`,
      request: { query: ZDocumentListQuery },
      responses: {
        200: { description: "A JSON array of documents", content: json(ZDocumentList), headers: LINK },
        ...errors({ 400: "A filter, page or sort that is not valid (every failing one is named)", 401: AUTH_401 }),
      },
    }),
    updateCaseFile: route({
      ...base,
      method: "put",
      path: cf,
      operationId: `penneo${v}UpdateCaseFile`,
      summary: "Change a case file",
      description:
        "Partial: an absent key is left as it is; what a client read and sends back unchanged (`id`, `status`, `activated`, ...) is ignored. " +
        "A draft (status 0, not sent or activated) takes every field; once sent, a key whose value would change is refused with 409 (unchanged values pass), " +
        "and a case file in the recycle bin takes nothing (409).",
      request: { params: ZCaseFileParams, body: { schema: ZCaseFileUpdate, mediaTypes: ["application/json"] } },
      responses: {
        200: { description: "The case file", content: json(ZCaseFile) },
        ...errors({ 400: "A field that is not valid (every failing one is named)", 401: AUTH_401, 404: NOT_FOUND, 409: "The case file is sent or deleted" }),
      },
    }),
    sendCaseFile: action(
      "send",
      "Send a draft",
      "A draft (status 0, created with activateCaseFile false) is sent as one sent at create: its signing links are made, and at its sendAt (at once when " +
        "unset or past) the casefile-worker sends it (status 1, `sign.signer.requestActivated`, the signing-request mails). 409 when it is not a draft, or " +
        "when something would stop it (GET .../errors lists what).",
    ),
    activateCaseFile: action(
      "activate",
      "Activate a draft without sending",
      "As send, but no signing request, reminder or e-Boks message goes to the signers: their links work and the events flow; the integrator hands the links out.",
    ),
    restoreCaseFile: action(
      "restore",
      "Restore a case file from the recycle bin",
      "Ours (Penneo's SDKs have no such call): a deleted case file (status 3) goes back to the status it had, in its folder; a pending one's links work again unless it expired meanwhile.",
    ),
    caseFileErrors: route({
      ...base,
      method: "get",
      path: `${cf}/errors`,
      operationId: `penneo${v}CaseFileErrors`,
      summary: "What would stop sending the case file",
      request: { params: ZCaseFileParams },
      responses: {
        200: { description: "A JSON array of messages; [] when it could be sent", content: json(ZCaseFileErrors) },
        ...errors({ 401: AUTH_401, 404: NOT_FOUND }),
      },
    }),
  };
}

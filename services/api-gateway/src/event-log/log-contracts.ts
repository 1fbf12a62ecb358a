import { z } from "zod";
import { ZCaseFileParams, ZSignerParams } from "../casefiles/casefile-schemas";
import type { PenneoApiVersion } from "../casefiles/casefile-contracts";
import { API_AUTH, errors, json, route, TAGS } from "../contract/route";
import { ZLogEntryList, ZLogQuery } from "./log-schemas";

const AUTH_401 = "Missing or invalid credentials";
const PAGING =
  "Oldest first. Unpaged, at most the page maximum and a `Link` to the next page; `page`/`per_page` (sdk-net) or `limit`/`offset` (sdk-php) page it.";
const LINK = { Link: { description: "The next, previous and first pages, when there is more than one (RFC 8288, as sdk-net parses it)", schema: z.string() } };

/** The event log of a case file and of each signer (Penneo's `log` resource), in one of its API versions. */
export function logRoutes<V extends PenneoApiVersion>(v: V) {
  const base = { tags: [TAGS.penneoApi], security: API_AUTH } as const;
  return {
    signerLog: route({
      ...base,
      method: "get",
      path: `/api/${v}/casefiles/{id}/signers/{signerId}/log`,
      operationId: `penneo${v}SignerLog`,
      summary: "A signer's event log (sdk-net Signer.GetEventLog, sdk-php getEventLog)",
      description: PAGING,
      request: { params: ZSignerParams, query: ZLogQuery },
      responses: {
        200: { description: "A JSON array of LogEntry", content: json(ZLogEntryList), headers: LINK },
        ...errors({ 400: "Invalid paging", 401: AUTH_401, 404: "No such signer for this customer" }),
      },
    }),
    caseFileLog: route({
      ...base,
      method: "get",
      path: `/api/${v}/casefiles/{id}/log`,
      operationId: `penneo${v}CaseFileLog`,
      summary: "A case file's whole event log, its signers' entries included",
      description: PAGING,
      request: { params: ZCaseFileParams, query: ZLogQuery },
      responses: {
        200: { description: "A JSON array of LogEntry", content: json(ZLogEntryList), headers: LINK },
        ...errors({ 400: "Invalid paging", 401: AUTH_401, 404: "No such case file for this customer" }),
      },
    }),
  };
}

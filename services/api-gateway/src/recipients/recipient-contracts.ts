import { ZCaseFileParams, ZCopyRecipient } from "../casefiles/casefile-schemas";
import type { PenneoApiVersion } from "../casefiles/casefile-contracts";
import { API_AUTH, errors, json, route, TAGS } from "../contract/route";
import { RECIPIENT_ERROR_MAP, ZCopyRecipientAdd, ZCopyRecipientList, ZCopyRecipientUpdate, ZRecipientParams } from "./recipient-schemas";

const AUTH_401 = "Missing or invalid credentials";
const OPEN = "Only while the case file is new or pending (completed, rejected, expired, failed or deleted: 409).";

/**
 * A case file's copy recipients (who get the completion mail, as the create's `ccRecipients`), at
 * Penneo's paths (sdk-net `CopyRecipient`, sdk-php `CopyRecipient`), in one of its API versions.
 */
export function recipientRoutes<V extends PenneoApiVersion>(v: V) {
  const base = { tags: [TAGS.penneoApi], security: API_AUTH } as const;
  const list = `/api/${v}/casefiles/{id}/recipients` as const;
  const one = `${list}/{recipientId}` as const;
  const notFound = { 401: AUTH_401, 404: "No such case file or copy recipient for this customer" } as const;
  return {
    listRecipients: route({
      ...base,
      method: "get",
      path: list,
      operationId: `penneo${v}ListCopyRecipients`,
      summary: "The case file's copy recipients",
      request: { params: ZCaseFileParams },
      responses: {
        200: { description: "A JSON array", content: json(ZCopyRecipientList) },
        ...errors({ 401: AUTH_401, 404: "No such case file for this customer" }),
      },
    }),
    addRecipient: route({
      ...base,
      method: "post",
      path: list,
      operationId: `penneo${v}AddCopyRecipient`,
      summary: "Add a copy recipient",
      description: `${OPEN} They get the completion mail like the create's ccRecipients.`,
      request: { params: ZCaseFileParams, body: { schema: ZCopyRecipientAdd, mediaTypes: ["application/json"], errorMap: RECIPIENT_ERROR_MAP } },
      responses: {
        201: { description: "The copy recipient", content: json(ZCopyRecipient) },
        ...errors({
          400: "Invalid fields",
          401: AUTH_401,
          404: "No such case file for this customer",
          409: "The case file is finalized or deleted, or has its most copy recipients",
        }),
      },
    }),
    getRecipient: route({
      ...base,
      method: "get",
      path: one,
      operationId: `penneo${v}GetCopyRecipient`,
      summary: "One copy recipient",
      request: { params: ZRecipientParams },
      responses: { 200: { description: "The copy recipient", content: json(ZCopyRecipient) }, ...errors(notFound) },
    }),
    updateRecipient: route({
      ...base,
      method: "put",
      path: one,
      operationId: `penneo${v}UpdateCopyRecipient`,
      summary: "Change a copy recipient's name or email",
      description: `Partial. ${OPEN}`,
      request: { params: ZRecipientParams, body: { schema: ZCopyRecipientUpdate, mediaTypes: ["application/json"], errorMap: RECIPIENT_ERROR_MAP } },
      responses: {
        200: { description: "The copy recipient", content: json(ZCopyRecipient) },
        ...errors({ 400: "Invalid fields", ...notFound, 409: "The case file is finalized or deleted" }),
      },
    }),
    deleteRecipient: route({
      ...base,
      method: "delete",
      path: one,
      operationId: `penneo${v}DeleteCopyRecipient`,
      summary: "Remove a copy recipient",
      description: OPEN,
      request: { params: ZRecipientParams },
      responses: { 204: { description: "Removed" }, ...errors({ ...notFound, 409: "The case file is finalized or deleted" }) },
    }),
  };
}

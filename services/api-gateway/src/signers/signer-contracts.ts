import { ZSigner, ZSignerParams, ZCaseFileParams, ZSigningRequest } from "../casefiles/casefile-schemas";
import type { PenneoApiVersion } from "../casefiles/casefile-contracts";
import { API_AUTH, errors, json, route, TAGS } from "../contract/route";
import { SIGNER_ERROR_MAP, ZSignerAdd, ZSignerUpdate, ZSigningLinkList, ZSigningRequestParams, ZSigningRequestUpdate } from "./signer-schemas";

const AUTH_401 = "Missing or invalid credentials";
const RULES = "Each field follows the create payload's rules (codes and words); every failing field is listed.";

/**
 * Signers and their signing requests after creation, at Penneo's paths (sdk-net `Signer`,
 * `SigningRequest`; sdk-php `Signer`, `SigningRequest`), in one of the API versions its clients use.
 */
export function signerRoutes<V extends PenneoApiVersion>(v: V) {
  const base = { tags: [TAGS.penneoApi], security: API_AUTH } as const;
  const cf = `/api/${v}/casefiles/{id}` as const;
  const sr = `/api/${v}/signingrequests/{id}` as const;
  return {
    addSigner: route({
      ...base,
      method: "post",
      path: `${cf}/signers`,
      operationId: `penneo${v}AddSigner`,
      summary: "Add a signer to a draft",
      description: `Only while the case file is new (status 0). The signer gets what a signer of the create gets: its signing request, the account's secure methods unless given, a signing link when the case file is to be sent. ${RULES}`,
      request: { params: ZCaseFileParams, body: { schema: ZSignerAdd, mediaTypes: ["application/json"], errorMap: SIGNER_ERROR_MAP } },
      responses: {
        201: { description: "The signer", content: json(ZSigner) },
        ...errors({
          400: "Invalid fields",
          401: AUTH_401,
          404: "No such case file for this customer",
          409: "The case file is not a draft, or has its most signers",
        }),
      },
    }),
    updateSigner: route({
      ...base,
      method: "put",
      path: `${cf}/signers/{signerId}`,
      operationId: `penneo${v}UpdateSigner`,
      summary: "Change a signer",
      description: `Partial. On a draft every field; once sent only \`name\` and \`onBehalfOf\` (a value sent back unchanged is no change); never once the signer signed, rejected or was deleted. ${RULES}`,
      request: { params: ZSignerParams, body: { schema: ZSignerUpdate, mediaTypes: ["application/json"], errorMap: SIGNER_ERROR_MAP } },
      responses: {
        200: { description: "The signer", content: json(ZSigner) },
        ...errors({
          400: "Invalid fields",
          401: AUTH_401,
          404: "No such signer for this customer",
          409: "The change is not allowed in the case file's or signer's state",
        }),
      },
    }),
    deleteSigner: route({
      ...base,
      method: "delete",
      path: `${cf}/signers/{signerId}`,
      operationId: `penneo${v}DeleteSigner`,
      summary: "Remove a signer who has not signed",
      description: "Only while the case file is new or pending, and never the last signer who can sign.",
      request: { params: ZSignerParams },
      responses: {
        204: { description: "Deleted" },
        ...errors({ 401: AUTH_401, 404: "No such signer for this customer", 409: "The signer or case file state does not allow it" }),
      },
    }),
    getSigningRequest: route({
      ...base,
      method: "get",
      path: sr,
      operationId: `penneo${v}GetSigningRequest`,
      summary: "A signing request (its id is its signer's)",
      request: { params: ZSigningRequestParams },
      responses: {
        200: { description: "The signing request", content: json(ZSigningRequest) },
        ...errors({ 401: AUTH_401, 404: "No such signing request for this customer" }),
      },
    }),
    updateSigningRequest: route({
      ...base,
      method: "put",
      path: sr,
      operationId: `penneo${v}UpdateSigningRequest`,
      summary: "Change a signing request: address, texts, reminders, redirects, methods",
      description: `Partial, while the case file is new or pending and the signer has not signed, rejected or been deleted. A changed email goes out with the next resend (PATCH .../send). ${RULES}`,
      request: { params: ZSigningRequestParams, body: { schema: ZSigningRequestUpdate, mediaTypes: ["application/json"], errorMap: SIGNER_ERROR_MAP } },
      responses: {
        200: { description: "The signing request", content: json(ZSigningRequest) },
        ...errors({
          400: "Invalid fields",
          401: AUTH_401,
          404: "No such signing request for this customer",
          409: "The change is not allowed in the case file's or signer's state",
        }),
      },
    }),
    sendSigningRequest: route({
      ...base,
      method: "patch",
      path: `${sr}/send`,
      operationId: `penneo${v}SendSigningRequest`,
      summary: "Send the signing request again",
      description:
        "A new signing-request mail (or e-Boks message) to the signer's current address, then `sign.signer.requestSent`; with signOnMeeting the link goes to the case file's creator instead. Only for a pending (or undeliverable: it is pending again) signer of a pending case file. No body.",
      request: { params: ZSigningRequestParams },
      responses: {
        200: { description: "The signing request; the message is on its way", content: json(ZSigningRequest) },
        ...errors({ 401: AUTH_401, 404: "No such signing request for this customer", 409: "The case file is not sent, or the signer cannot sign now" }),
      },
    }),
    getSigningLink: route({
      ...base,
      method: "get",
      path: `${sr}/link`,
      operationId: `penneo${v}GetSigningLink`,
      summary: "The signer's signing link",
      description:
        "A JSON array of one string. A draft whose links are not made yet (it is neither sent nor to be sent), a signer with nothing to sign, a deleted signer or case file: 409 (a JSON error body).",
      request: { params: ZSigningRequestParams },
      responses: {
        200: { description: "The link", content: json(ZSigningLinkList) },
        ...errors({ 401: AUTH_401, 404: "No such signing request for this customer", 409: "There is no link that works" }),
      },
    }),
  };
}

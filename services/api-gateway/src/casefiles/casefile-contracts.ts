import type { AppConfig } from "@esign/config";
import { FILE_FIELDS } from "./upload-middleware";
import {
  ZBase64Pdf,
  ZBase64PdfList,
  ZCaseFile,
  ZCaseFileCreateRequest,
  ZCaseFileParams,
  ZCreateAnswer,
  ZCreateHeaders,
  ZDocument,
  ZDocumentContentQuery,
  ZDocumentFileParams,
  ZDocumentList,
  ZDocumentParams,
  ZSignerList,
  ZSigner,
  ZSignerParams,
  ZSigningRequestList,
  ZUser,
} from "./casefile-schemas";
import { ZBinaryFile } from "../contract/common-schemas";
import { API_AUTH, errors, json, route, TAGS } from "../contract/route";

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

const AUTH_401 = "Missing or invalid credentials";
const readErrors = (what: string) => errors({ 401: AUTH_401, 404: `No such ${what} for this customer` });

/** Both API versions the published clients use: sdk-php defaults to v1 (WSSE) and v3 (OAuth), sdk-net to v3. */
export const PENNEO_API_VERSIONS = ["v1", "v3"] as const;
export type PenneoApiVersion = (typeof PENNEO_API_VERSIONS)[number];

/** Penneo's own read and manage paths (penneo-routes.ts), in one of the API versions its clients use. */
export function penneoApiRoutes<V extends PenneoApiVersion>(v: V) {
  const base = { tags: [TAGS.penneoApi], security: API_AUTH } as const;
  const cf = `/api/${v}/casefiles/{id}` as const;
  const doc = `/api/${v}/documents/{documentId}` as const;
  return {
    getUser: route({
      ...base,
      method: "get",
      path: `/api/${v}/user`,
      operationId: `penneo${v}GetUser`,
      summary: "The user the credentials speak for",
      responses: { 200: { description: "The user", content: json(ZUser) }, ...errors({ 401: AUTH_401 }) },
    }),
    getCaseFile: route({
      ...base,
      method: "get",
      path: cf,
      operationId: `penneo${v}GetCaseFile`,
      summary: "Read a case file (Penneo's path)",
      request: { params: ZCaseFileParams },
      responses: { 200: { description: "The case file", content: json(ZCaseFile) }, ...readErrors("case file") },
    }),
    deleteCaseFile: route({
      ...base,
      method: "delete",
      path: cf,
      operationId: `penneo${v}DeleteCaseFile`,
      summary: "Delete a case file",
      description:
        "Into the recycle bin: status 3 at once, whatever the state: signing links close, nothing scheduled runs any more. The case file and its documents stay readable, " +
        "`GET casefiles?deleted=true` lists the bin and `PATCH casefiles/{id}/restore` takes it back to the status it had, until the customer's recycle-bin period " +
        "(30 days unless set otherwise) has passed and it is purged with its files. A repeated DELETE answers the same.",
      request: { params: ZCaseFileParams },
      responses: { 200: { description: "The case file, now in status 3", content: json(ZCaseFile) }, ...readErrors("case file") },
    }),
    listDocuments: route({
      ...base,
      method: "get",
      path: `${cf}/documents`,
      operationId: `penneo${v}ListDocuments`,
      summary: "The case file's documents",
      request: { params: ZCaseFileParams },
      responses: { 200: { description: "A JSON array", content: json(ZDocumentList) }, ...readErrors("case file") },
    }),
    listSigners: route({
      ...base,
      method: "get",
      path: `${cf}/signers`,
      operationId: `penneo${v}ListSigners`,
      summary: "The case file's signers",
      request: { params: ZCaseFileParams },
      responses: { 200: { description: "A JSON array", content: json(ZSignerList) }, ...readErrors("case file") },
    }),
    getSigner: route({
      ...base,
      method: "get",
      path: `${cf}/signers/{signerId}`,
      operationId: `penneo${v}GetSigner`,
      summary: "One signer",
      request: { params: ZSignerParams },
      responses: { 200: { description: "The signer", content: json(ZSigner) }, ...readErrors("signer") },
    }),
    listSigningRequests: route({
      ...base,
      method: "get",
      path: `${cf}/signers/{signerId}/signingrequests`,
      operationId: `penneo${v}ListSigningRequests`,
      summary: "The signer's signing request (a list of one)",
      request: { params: ZSignerParams },
      responses: { 200: { description: "A JSON array", content: json(ZSigningRequestList) }, ...readErrors("signer") },
    }),
    getDocument: route({
      ...base,
      method: "get",
      path: doc,
      operationId: `penneo${v}GetDocument`,
      summary: "Read a document",
      request: { params: ZDocumentParams },
      responses: { 200: { description: "The document", content: json(ZDocument) }, ...readErrors("document") },
    }),
    getDocumentContent: route({
      ...base,
      method: "get",
      path: `${doc}/content`,
      operationId: `penneo${v}GetDocumentContent`,
      summary: "Download a document (the sealed PDF once finalized)",
      description: "The PDF; with `Accept: application/json`, the PDF as one base64 JSON string.",
      request: { params: ZDocumentParams, query: ZDocumentContentQuery },
      responses: { 200: { description: "The PDF", content: { "application/pdf": ZBinaryFile, "application/json": ZBase64Pdf } }, ...readErrors("document") },
    }),
    getDocumentPdf: route({
      ...base,
      method: "get",
      path: `${doc}/pdf`,
      operationId: `penneo${v}GetDocumentPdf`,
      summary: "Download a document as base64 (sdk-net)",
      request: { params: ZDocumentParams, query: ZDocumentContentQuery },
      responses: { 200: { description: "A one-element JSON array", content: json(ZBase64PdfList) }, ...readErrors("document") },
    }),
  };
}

/** Where case files are created (multipart, asynchronous): the spec's dated path. */
export const CREATE_PATH = "/send/api/v1/casefiles/20251022/create";

export function caseFileRoutes(config: AppConfig) {
  return {
    createCaseFile: route({
      method: "post",
      path: CREATE_PATH,
      operationId: "createCaseFile",
      summary: "Create a case file (asynchronously, as a job)",
      description:
        "A multipart request: the `data` part holds the JSON text of `CaseFileCreateData`, every `files` part one PDF " +
        `whose file name matches a document's \`name\`. Limits: at most ${config.UPLOAD_MAX_FILES} files of ` +
        `${mb(config.UPLOAD_MAX_FILE_BYTES)} each (413 beyond the size, 400 beyond the count). Poll the job with ` +
        "`uuid` + `payloadHash`. Answers 200, as Penneo's Postman collection expects.",
      tags: [TAGS.caseFiles],
      security: API_AUTH,
      request: {
        headers: ZCreateHeaders,
        multipart: {
          schema: ZCaseFileCreateRequest,
          description: "One `data` field and one or more `files` parts",
          parts: {
            data: {
              contentType: "application/json",
              description: "A form field (not a file) whose value is the JSON text of CaseFileCreateData",
            },
            files: {
              contentType: "application/pdf",
              description: `The PDFs, checked by content; the part may also be named "${FILE_FIELDS[1]}"`,
            },
          },
        },
      },
      responses: {
        200: { description: "The job is stored and queued (or, for a repeated Idempotency-Key, the first answer)", content: json(ZCreateAnswer) },
        ...errors({
          400: "Invalid data or parts (every failing field is listed), not a PDF, too many files; a PDF that is encrypted (`pdf_encrypted`), unreadable (`pdf_unreadable`), without pages (`pdf_no_pages`) or too costly to inspect (`pdf_too_costly`: it decompresses past PDF_INSPECT_MAX_INFLATED_BYTES, or needs more time or memory than one document may have)",
          401: AUTH_401,
          413: "A file or field is too large",
          415: "Not multipart/form-data",
          422: "The Idempotency-Key was used with another payload",
        }),
      },
    }),
    getCaseFile: route({
      method: "get",
      path: "/send/api/v1/casefiles/{id}",
      operationId: "getCaseFile",
      summary: "Read a case file",
      tags: [TAGS.caseFiles],
      security: API_AUTH,
      request: { params: ZCaseFileParams },
      responses: {
        200: { description: "The case file", content: json(ZCaseFile) },
        ...readErrors("case file"),
      },
    }),
    getDocumentFile: route({
      method: "get",
      path: "/send/api/v1/casefiles/{id}/documents/{documentId}/file",
      operationId: "getDocumentFile",
      summary: "Download a document (the signed PDF once finalized)",
      tags: [TAGS.caseFiles],
      security: API_AUTH,
      request: { params: ZDocumentFileParams },
      responses: {
        200: { description: "The PDF", content: { "application/pdf": ZBinaryFile } },
        ...readErrors("case file or document"),
      },
    }),
    deleteSigner: route({
      method: "delete",
      path: "/send/api/v1/casefiles/{id}/signers/{signerId}",
      operationId: "deleteSigner",
      summary: "Remove a signer who has not signed",
      description: "Only while the case file is new or pending, and never the last signer who can sign.",
      tags: [TAGS.caseFiles],
      security: API_AUTH,
      request: { params: ZSignerParams },
      responses: {
        204: { description: "Deleted" },
        ...errors({ 401: AUTH_401, 404: "No such signer for this customer", 409: "The signer or case file state does not allow it" }),
      },
    }),
  };
}

import { z } from "zod";
import type { AppConfig } from "@esign/config";
import { CREATE_PATH } from "../../casefiles/create-route";
import { FILE_FIELDS } from "../../casefiles/upload-middleware";
import { JOB_STATUS_PATH } from "../../jobs/job-status-route";
import {
  REQUEST_COMPONENTS,
  ZBinaryFile,
  ZCaseFileParams,
  ZCreateHeaders,
  ZDocumentFileParams,
  ZSignerParams,
} from "../request-schemas";
import { ZCaseFile, ZCreateAnswer, ZErrorBody, ZJob } from "../response-schemas";
import { errors, json, TAGS, X_AUTH_TOKEN, type RouteDoc } from "../route-doc";

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

export function caseFileRoutes(config: AppConfig): RouteDoc[] {
  const pollSeconds = config.JOB_POLL_INTERVAL_MS / 1000;
  return [
    {
      method: "post",
      path: CREATE_PATH,
      operationId: "createCaseFile",
      summary: "Create a case file (asynchronously, as a job)",
      description:
        "A multipart request: the `data` part holds the JSON text of `CaseFileCreateData`, every `files` part one PDF " +
        `whose file name matches a document's \`name\`. Limits: at most ${config.UPLOAD_MAX_FILES} files of ` +
        `${mb(config.UPLOAD_MAX_FILE_BYTES)} each (413 beyond the size, 400 beyond the count). Poll the job with ` +
        "`uuid` + `payloadHash`.",
      tags: [TAGS.caseFiles],
      security: X_AUTH_TOKEN,
      request: {
        headers: ZCreateHeaders,
        multipart: {
          schema: REQUEST_COMPONENTS.CaseFileCreateRequest,
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
        201: { description: "The job is stored and queued", content: json(ZCreateAnswer) },
        ...errors({
          400: "Invalid data or parts (every failing field is listed), not a PDF, too many files",
          401: "Missing or invalid X-Auth-Token",
          413: "A file or field is too large",
          415: "Not multipart/form-data",
          422: "The Idempotency-Key was used with another payload",
        }),
      },
    },
    {
      method: "post",
      path: JOB_STATUS_PATH,
      operationId: "getJobStatus",
      summary: "Poll a creation job",
      description: `No token: the uuid + payloadHash pair is the credential. Poll at most every ${pollSeconds} s per job; jobs are kept ${config.JOB_RETENTION_DAYS} days.`,
      tags: [TAGS.caseFiles],
      security: [],
      request: { body: { schema: REQUEST_COMPONENTS.JobStatusRequest, mediaTypes: ["application/json"] } },
      responses: {
        200: { description: "The job", content: json(ZJob) },
        ...errors({ 400: "uuid or payloadHash missing or malformed", 404: "Unknown pair, or the job is older than the retention" }),
        429: {
          description: `Polled again within ${pollSeconds} s`,
          content: json(ZErrorBody),
          headers: { "Retry-After": { description: "Seconds until the next poll is answered", schema: z.int().min(1) } },
        },
      },
    },
    {
      method: "get",
      path: "/send/api/v1/casefiles/{id}",
      operationId: "getCaseFile",
      summary: "Read a case file",
      tags: [TAGS.caseFiles],
      security: X_AUTH_TOKEN,
      request: { params: ZCaseFileParams },
      responses: {
        200: { description: "The case file", content: json(ZCaseFile) },
        ...errors({ 401: "Missing or invalid X-Auth-Token", 404: "No such case file for this customer" }),
      },
    },
    {
      method: "get",
      path: "/send/api/v1/casefiles/{id}/documents/{documentId}/file",
      operationId: "getDocumentFile",
      summary: "Download a document (the signed PDF once finalized)",
      tags: [TAGS.caseFiles],
      security: X_AUTH_TOKEN,
      request: { params: ZDocumentFileParams },
      responses: {
        200: { description: "The PDF", content: { "application/pdf": ZBinaryFile } },
        ...errors({ 401: "Missing or invalid X-Auth-Token", 404: "No such case file or document for this customer" }),
      },
    },
    {
      method: "delete",
      path: "/send/api/v1/casefiles/{id}/signers/{signerId}",
      operationId: "deleteSigner",
      summary: "Remove a signer who has not signed",
      description: "Only while the case file is new or pending, and never the last signer who can sign.",
      tags: [TAGS.caseFiles],
      security: X_AUTH_TOKEN,
      request: { params: ZSignerParams },
      responses: {
        204: { description: "Deleted" },
        ...errors({ 401: "Missing or invalid X-Auth-Token", 404: "No such signer for this customer", 409: "The signer or case file state does not allow it" }),
      },
    },
  ];
}

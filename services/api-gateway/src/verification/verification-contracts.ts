import type { AppConfig } from "@esign/config";
import { ZDocumentVerification, ZDocumentVerificationParams, ZPublicVerification, ZVerifyUploadRequest } from "./verification-schemas";
import { API_AUTH, errors, json, PUBLIC, route, TAGS } from "../contract/route";

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

export function verificationRoutes(config: AppConfig) {
  return {
    getDocumentVerification: route({
      method: "get",
      path: "/send/api/v1/casefiles/{id}/documents/{documentId}/verification",
      operationId: "getDocumentVerification",
      summary: "Verify the seal of a document of your case file",
      description:
        "Checks the stored sealed copy the way a validator does: the PAdES signature (ETSI.CAdES.detached, SHA-256) " +
        "holds, covers the whole file, names its certificate (signing-certificate-v2), and the embedded RFC 3161 " +
        "timestamp when one was made. `sealed` is false before finalization and for attachments.",
      tags: [TAGS.verification],
      security: API_AUTH,
      request: { params: ZDocumentVerificationParams },
      responses: {
        200: { description: "The seal's state", content: json(ZDocumentVerification) },
        ...errors({ 401: "Missing or invalid X-Auth-Token", 404: "No such document in a case file of yours" }),
      },
    }),
    verifyPdf: route({
      method: "post",
      path: "/verify",
      operationId: "verifyPdf",
      summary: "Anyone: was this PDF sealed by this platform, and changed since?",
      description:
        "Send the PDF as the raw body (`Content-Type: application/pdf`) or as a multipart part named `file`, at most " +
        `${mb(config.UPLOAD_MAX_FILE_BYTES)}. The answer says only whether a seal of this platform verifies on it and ` +
        "whether the file changed after sealing (a changed byte, or bytes added after the seal): no names, no ids.",
      tags: [TAGS.verification],
      security: PUBLIC,
      request: {
        multipart: {
          schema: ZVerifyUploadRequest,
          description: "One part named `file` (or the raw PDF as the body)",
          parts: { file: { contentType: "application/pdf", description: "The PDF to verify" } },
        },
      },
      responses: {
        200: { description: "The verdict", content: json(ZPublicVerification) },
        ...errors({
          400: "No file, not a PDF, or too costly to verify (not checked within PDF_INSPECT_TIMEOUT_MS: `too_costly`)",
          413: "The file is larger than the limit",
          415: "Neither application/pdf nor multipart/form-data",
        }),
      },
    }),
  };
}

import { z } from "zod";
import type { SealReport } from "@esign/seal";
import { component } from "../contract/components";
import { ZId } from "../contract/common-schemas";

export const ZDocumentVerificationParams = z.object({ id: ZId, documentId: ZId });

const ZCertificate = z.object({
  subject: z.string(),
  issuer: z.string(),
  serialNumber: z.string().describe("Hex"),
  notBefore: z.iso.datetime(),
  notAfter: z.iso.datetime(),
  sha256Fingerprint: z.string().describe("Lowercase hex SHA-256 of the DER certificate"),
});

export const ZDocumentVerification = component(
  "DocumentVerification",
  z
    .object({
      caseFileId: z.int(),
      documentId: z.int(),
      originalSha256: z.string().describe("SHA-256 of the PDF as uploaded"),
      sealedSha256: z.string().nullable().describe("SHA-256 of the sealed copy; null until the case file is finalized"),
      sealed: z.boolean().describe("A sealed copy exists (false for attachments and before finalization)"),
      sealedAt: z.iso.datetime().nullable(),
      sealValid: z.boolean().nullable().describe("The seal's signature holds and no signed byte changed"),
      coversWholeFile: z.boolean().nullable().describe("The signed ranges cover every byte of the file except the signature itself"),
      signingCertificateV2: z.boolean().nullable().describe("The CAdES signing-certificate-v2 attribute names the seal certificate"),
      level: z.enum(["B-B", "B-T"]).nullable().describe("PAdES baseline level: B-T when a valid RFC 3161 timestamp is embedded"),
      signingTime: z.iso.datetime().nullable().describe("Claimed by the platform's clock (signed attribute)"),
      certificate: ZCertificate.nullable(),
      timestamp: z
        .object({ time: z.iso.datetime(), valid: z.boolean(), authority: ZCertificate.nullable() })
        .nullable()
        .describe("RFC 3161 timestamp over the signature, with TSA_URL configured"),
    })
    .describe("The seal of a document of your own case file"),
);

export const ZPublicVerification = component(
  "PublicVerification",
  z
    .object({
      verdict: z.enum(["sealed_unchanged", "sealed_changed", "not_sealed_by_this_platform"]),
      sealedByThisPlatform: z.boolean(),
      unchanged: z.boolean().nullable().describe("null when the file carries no seal of this platform"),
    })
    .describe("Whether this platform sealed the PDF, and whether it changed since; nothing else"),
);

/** The multipart form of POST /verify (the raw body form needs no schema: it is the PDF). */
export const ZVerifyUploadRequest = component("VerifyUploadRequest", z.object({ file: z.string().meta({ format: "binary" }) }));

export type DocumentVerification = z.input<typeof ZDocumentVerification>;

/** The answer of GET .../verification from the stored document and the seal report of its file. */
export function presentDocumentVerification(
  doc: { id: number; caseFileId: number; fileSha256: string; signedSha256: string | null; sealedAt: Date | null },
  report: SealReport | null,
): DocumentVerification {
  return {
    caseFileId: doc.caseFileId,
    documentId: doc.id,
    originalSha256: doc.fileSha256,
    sealedSha256: doc.signedSha256,
    sealed: report?.signed ?? false,
    sealedAt: doc.sealedAt?.toISOString() ?? null,
    sealValid: report ? report.signatureValid : null,
    coversWholeFile: report ? report.coversWholeFile : null,
    signingCertificateV2: report ? report.signingCertificateV2 : null,
    level: report?.level ?? null,
    signingTime: report?.signingTime ?? null,
    certificate: report?.certificate ?? null,
    timestamp: report?.timestamp ?? null,
  };
}

import { z } from "zod";
import { ZLanguage } from "@esign/schema";

const ZSha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex characters");
const ZText = z.string().max(4096);

export const ZAuditTrailSigner = z.object({
  name: ZText.min(1),
  role: ZText,
  onBehalfOf: ZText.nullable(),
  outcome: z.enum(["signed", "rejected", "notSigned"]),
  /** text | draw | image | a secure method name */
  method: z.string().max(64).nullable(),
  secure: z.boolean(),
  /**
   * The identity an identity provider vouched for: for a secure method, at signing; for an insecure
   * one, at the identity validation a sensitive case file or accessControl asked for first.
   */
  identityProvider: ZText.nullable(),
  identitySubject: ZText.nullable(),
  identityMethod: z.string().max(64).nullable(),
  identityVerifiedAt: z.date().nullable(),
  /** The provider's national id was compared with the one on file (accessControl) and matched. */
  nationalIdMatched: z.boolean(),
  sentAt: z.date().nullable(),
  openedAt: z.date().nullable(),
  signedAt: z.date().nullable(),
  rejectedAt: z.date().nullable(),
  ipAddress: z.string().max(64).nullable(),
  userAgent: z.string().max(1024).nullable(),
});

export const ZAuditTrailDocument = z.object({
  id: z.number().int().positive(),
  title: ZText.min(1),
  pageCount: z.number().int().min(0),
  originalSha256: ZSha256,
  signable: z.boolean(),
});

/** Everything the certificate of completion states; checked at the package's edge like any input. */
export const ZAuditTrailContent = z.object({
  language: ZLanguage.nullable(),
  caseFile: z.object({ id: z.number().int().positive(), title: ZText.min(1) }),
  /** The document this copy of the audit trail is attached to (marked in the list). */
  documentId: z.number().int().positive(),
  documents: z.array(ZAuditTrailDocument).min(1),
  signers: z.array(ZAuditTrailSigner),
  seal: z.object({ certificateSubject: ZText, certificateSha256: ZSha256 }),
  generatedAt: z.date(),
});

export type AuditTrailContent = z.infer<typeof ZAuditTrailContent>;
export type AuditTrailSigner = z.infer<typeof ZAuditTrailSigner>;
export type AuditTrailDocument = z.infer<typeof ZAuditTrailDocument>;

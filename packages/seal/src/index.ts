export type { SealKey } from "./seal-key";
export { libPdfSigner } from "./seal-key";
export { LocalSealKey } from "./local-seal-key";
export { loadP12SealKey } from "./load-seal-key";
export { createDevelopmentSealP12, ensureDevelopmentSeal, DEVELOPMENT_SEAL_PASSWORD } from "./pki/development-seal";
export { readP12, writeP12, P12Error, STRONG_P12, type P12Contents, type P12Protection } from "./pki/p12";
export {
  EXT_KEY_USAGE,
  certificateDer,
  certificateFingerprint,
  generateRsaKeyPair,
  issueCertificate,
  parseCertificate,
  summarizeCertificate,
  type CertificateSummary,
  type DistinguishedName,
} from "./pki/certificates";
export { ZAuditTrailContent, type AuditTrailContent, type AuditTrailDocument, type AuditTrailSigner } from "./audit-trail/audit-trail-content";
export { AUDIT_TRAIL_CATALOG, AUDIT_TRAIL_SAME_AS_ENGLISH, messagesFor } from "./audit-trail/messages/catalog";
export type { AuditTrailMessages } from "./audit-trail/messages/messages";
export { preloadFonts } from "./audit-trail/fonts";
export { sealDocument, countPages, UnreadablePdfError, type PadesLevel, type SealOptions, type SealedDocument } from "./seal-document";
export { CheckedTimestampAuthority, TimestampRejected } from "./timestamp/checked-timestamp-authority";
export { readTimestampToken, type TimestampTokenInfo } from "./timestamp/timestamp-token";
export {
  inspectSeal,
  publicVerdict,
  verifyForPublic,
  type SealFindingInput,
  type PublicVerdict,
  type PublicVerification,
  type SealReport,
} from "./verify/verify-sealed-pdf";
export { createSealer, type Sealer, type SealSettings } from "./create-sealer";

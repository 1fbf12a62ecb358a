import type { PDF } from "@libpdf/core";
import { FontSet } from "./fonts";
import type { AuditTrailContent, AuditTrailSigner } from "./audit-trail-content";
import { messagesFor } from "./messages/catalog";
import type { AuditTrailMessages } from "./messages/messages";
import { PageWriter } from "./page-writer";

/** "2026-11-23 14:05:09 UTC": ISO order, seconds, no locale guessing. */
export const utc = (d: Date): string => `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;

function methodLabel(m: AuditTrailMessages, s: AuditTrailSigner): string | null {
  if (!s.method) return null;
  if (s.method === "text" || s.method === "draw" || s.method === "image") return m.methods[s.method];
  return m.methods.secure(s.method);
}

function writeSigner(w: PageWriter, m: AuditTrailMessages, s: AuditTrailSigner): void {
  const when = (d: Date | null) => (d ? utc(d) : m.notRecorded);
  w.keepTogether(12 * 9.5 * 1.4 + 24);
  w.space(6);
  w.text(s.name, { size: 11.5, style: "bold" });
  w.field(m.role, s.role);
  if (s.onBehalfOf) w.field(m.onBehalfOf, s.onBehalfOf);
  w.field(m.outcome, m.outcomes[s.outcome]);
  const method = methodLabel(m, s);
  if (method) w.field(m.signingMethod, method);
  if (s.secure || s.identityProvider) {
    w.field(m.identityProvider, s.identityProvider ?? m.notRecorded);
    // The method is in the signing method already when the signature itself was the eID login.
    if (!s.secure && s.identityMethod) w.field(m.identityMethod, s.identityMethod);
    w.field(m.identitySubject, s.identitySubject ?? m.notRecorded);
    if (s.identityVerifiedAt) w.field(m.identityVerifiedAt, utc(s.identityVerifiedAt));
    if (s.nationalIdMatched) w.field(m.nationalId, m.nationalIdMatched);
  }
  w.field(m.sentAt, when(s.sentAt));
  w.field(m.openedAt, when(s.openedAt));
  if (s.outcome === "rejected") w.field(m.rejectedAt, when(s.rejectedAt));
  else w.field(m.signedAt, when(s.signedAt));
  if (s.outcome !== "notSigned") {
    w.field(m.ipAddress, s.ipAddress ?? m.notRecorded);
    w.field(m.userAgent, s.userAgent ?? m.notRecorded);
  }
}

/**
 * Appends the certificate of completion to `pdf` (after its last page) in the case file's language.
 * Returns the number of pages it took.
 */
export function renderAuditTrail(pdf: PDF, content: AuditTrailContent): number {
  const { messages: m } = messagesFor(content.language);
  const w = new PageWriter(pdf, new FontSet(pdf));
  w.text(m.title, { size: 20, style: "bold" });
  w.space(4);
  w.text(m.intro, { size: 9.5, gray: true });
  w.rule();

  w.text(m.caseFileSection, { size: 13, style: "bold" });
  w.field(m.caseFileTitle, content.caseFile.title);
  w.field(m.caseFileId, String(content.caseFile.id));
  w.rule();

  w.text(m.documentsSection, { size: 13, style: "bold" });
  for (const d of content.documents) {
    w.keepTogether(6 * 9.5 * 1.4 + 16);
    w.space(5);
    const marks = [d.id === content.documentId ? m.thisDocument : "", d.signable ? "" : m.notForSigning].filter(Boolean).join(" ");
    w.text(marks ? `${d.title} ${marks}` : d.title, { size: 11, style: "bold" });
    w.field(m.documentId, String(d.id));
    w.field(m.pageCount, String(d.pageCount));
    w.blockField(m.originalSha256, d.originalSha256);
  }
  w.rule();

  w.text(m.signersSection, { size: 13, style: "bold" });
  if (content.signers.length === 0) w.text(m.noSigners, { size: 10, gray: true });
  for (const s of content.signers) writeSigner(w, m, s);
  w.rule();

  w.text(m.sealSection, { size: 13, style: "bold" });
  w.text(m.sealExplanation, { size: 9.5, gray: true });
  w.field(m.sealCertificateSubject, content.seal.certificateSubject);
  w.blockField(m.sealCertificateFingerprint, content.seal.certificateSha256);
  w.field(m.generatedAt, utc(content.generatedAt));
  w.space(6);
  w.text(m.timesInUtc, { size: 9, gray: true });
  w.footers(m.page);
  return w.pages.length;
}

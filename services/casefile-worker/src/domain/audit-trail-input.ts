import { run, type Db, type Document, type Signer } from "@esign/db";
import type { AuditTrailContent, AuditTrailSigner } from "@esign/seal";
import { firstOpeningsSql } from "./casefile-queries.sql";
import { SIGNER_STATUS, ZLanguage, ZSecureSigningMethod, maySignDocument } from "@esign/schema";

export interface CaseFileForAudit {
  id: number;
  customerId: number;
  title: string;
  language: string | null;
  documents: Document[];
  signers: Signer[];
}

/**
 * First opening per signer, from the outbox: `Signer.openedAt` is the last counted opening, while the
 * audit trail states when the signer first saw the documents. Falls back to openedAt for signers
 * whose events are gone.
 */
export async function firstOpenings(db: Db, caseFile: Pick<CaseFileForAudit, "id" | "customerId">): Promise<Map<number, Date>> {
  const rows = await run(db, firstOpeningsSql, { customerId: caseFile.customerId, caseFileId: caseFile.id });
  return new Map(rows.map((r) => [Number(r.signerId), r.first]));
}

function outcomeOf(s: Signer): AuditTrailSigner["outcome"] {
  if (s.status === SIGNER_STATUS.signed) return "signed";
  if (s.status === SIGNER_STATUS.rejected) return "rejected";
  return "notSigned";
}

function signerEntry(s: Signer, opened: Map<number, Date>): AuditTrailSigner {
  const secure = s.signatureMethod !== null && ZSecureSigningMethod.safeParse(s.signatureMethod).success;
  return {
    name: s.name,
    role: s.role,
    onBehalfOf: s.onBehalfOf,
    outcome: outcomeOf(s),
    method: s.signatureMethod,
    secure,
    identityProvider: s.identityProvider,
    // Secure signatures from before identitySubject existed kept the subject as the signature value;
    // for the other methods that value is a typed name or an image's address, never repeated here.
    identitySubject: s.identitySubject ?? (secure ? s.signatureValue : null),
    identityMethod: s.identityMethod,
    identityVerifiedAt: s.identityVerifiedAt,
    nationalIdMatched: s.identityNationalIdEnc !== null,
    sentAt: s.activatedAt,
    openedAt: opened.get(s.id) ?? s.openedAt,
    signedAt: s.signedAt,
    rejectedAt: s.rejectedAt,
    ipAddress: s.actionIp,
    userAgent: s.actionUserAgent,
  };
}

/**
 * The audit trail of one signable document: the whole case file's documents (with page counts read
 * from the originals) and the signers who may sign this document, deleted signers left out.
 */
export function auditTrailFor(
  caseFile: CaseFileForAudit,
  doc: Document,
  pageCounts: ReadonlyMap<number, number>,
  opened: Map<number, Date>,
  now: Date,
): Omit<AuditTrailContent, "seal"> {
  const language = ZLanguage.safeParse(caseFile.language);
  return {
    language: language.success ? language.data : null,
    caseFile: { id: caseFile.id, title: caseFile.title },
    documentId: doc.id,
    documents: caseFile.documents.map((d) => ({
      id: d.id,
      title: d.title,
      pageCount: pageCounts.get(d.id) ?? 0,
      originalSha256: d.fileSha256,
      signable: d.signable,
    })),
    signers: caseFile.signers.filter((s) => s.status !== SIGNER_STATUS.deleted && maySignDocument(doc, s.role)).map((s) => signerEntry(s, opened)),
    generatedAt: now,
  };
}

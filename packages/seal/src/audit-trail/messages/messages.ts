/**
 * Every text of the audit trail, one object per language of the spec (see `catalog.ts`); the
 * compiler lists any text a language forgets, and message-catalogs.unit.test.ts checks the same at run time.
 */
export interface AuditTrailMessages {
  title: string;
  intro: string;
  caseFileSection: string;
  caseFileTitle: string;
  caseFileId: string;
  documentsSection: string;
  documentTitle: string;
  documentId: string;
  pageCount: string;
  originalSha256: string;
  thisDocument: string;
  notForSigning: string;
  signersSection: string;
  noSigners: string;
  role: string;
  onBehalfOf: string;
  outcome: string;
  outcomes: { signed: string; rejected: string; notSigned: string };
  signingMethod: string;
  methods: { text: string; draw: string; image: string; secure: (method: string) => string };
  identityProvider: string;
  identitySubject: string;
  /** Before an insecure signature: the method the signer validated their identity with. */
  identityMethod: string;
  identityVerifiedAt: string;
  nationalId: string;
  /** Only the fact is printed, never the number. */
  nationalIdMatched: string;
  sentAt: string;
  openedAt: string;
  signedAt: string;
  rejectedAt: string;
  ipAddress: string;
  userAgent: string;
  notRecorded: string;
  sealSection: string;
  sealExplanation: string;
  sealCertificateSubject: string;
  sealCertificateFingerprint: string;
  generatedAt: string;
  timesInUtc: string;
  page: (n: number, total: number) => string;
}

/**
 * Every text of the audit trail, one catalog per language. A language without a catalog of its own
 * falls back to English (see `messagesFor`); adding one is a new file beside `en.ts` and one line in
 * `catalog.ts`, and the compiler lists any text it forgets.
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

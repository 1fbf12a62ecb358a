import type { TInsecureSigningMethod, TSecureSigningMethod } from "@esign/schema";

/**
 * Every text of the signer's pages (the signing page, the identity page, result and error pages),
 * one object per language (see `catalog.ts`). Dates arrive formatted for the language.
 */
export interface SigningMessages {
  page: {
    skipToSign: string;
    forSigner(name: string): string;
    role(role: string): string;
    onBehalfOf(organization: string): string;
    openUntil(date: string): string;
    documentsHeading: string;
    documentsIntro: string;
    noDocuments: string;
    /** The mark of a document the signature applies to, and of one that is only to be read. */
    toSign: string;
    forInformation: string;
    downloadPdf(fileName: string): string;
    loadingDocument: string;
    documentUnavailable: string;
    pageOf(n: string, total: string): string;
    /** Accessible name of a document's pages. */
    documentPages(title: string): string;
    signHeading: string;
    signConsent: string;
    methodHeadings: Record<TInsecureSigningMethod, string>;
    fullNameLabel: string;
    signButton: string;
    drawInstructions: string;
    padLabel: string;
    clearDrawing: string;
    typeInsteadLabel: string;
    signWithDrawing: string;
    imageLabel: string;
    signWithImage: string;
    eidHeading: string;
    signWith(method: string): string;
    nothingToSign: string;
    signedHeading: string;
    signedOn(date: string): string;
    thankYou: string;
    backToDocuments: string;
    rejectHeading: string;
    rejectIntro: string;
    rejectReasonLabel: string;
    rejectButton: string;
    rejectedTitle: string;
    rejectedMessage: string;
    identityHeading: string;
    identityIntro: string;
    validateWith(method: string): string;
    backToSigningPage: string;
  };
  /** Texts the page's script shows (sent to the browser with the page). */
  browser: {
    drawFirst: string;
    chooseImageFirst: string;
    signing: string;
    signFailed: string;
  };
  /** Page titles of refusals, by HTTP status. */
  titles: {
    badRequest: string;
    forbidden: string;
    notFound: string;
    conflict: string;
    gone: string;
    tooManyRequests: string;
    unavailable: string;
    failed: string;
  };
  errors: {
    notFound: string;
    signerDeleted: string;
    caseFileDeleted: string;
    alreadySigned: string;
    alreadySignedOn(date: string): string;
    rejected: string;
    caseFileRejected: string;
    caseFileFailed: string;
    caseFileCompleted: string;
    expired: string;
    notYetSent: string;
    notYourTurn: string;
    notYourTurnUntil(date: string): string;
    notActionable: string;
    identityRequired: string;
    identityUnavailable: string;
    identityMismatch: string;
    loginCancelled: string;
    loginFailed: string;
    loginExpired: string;
    loginOtherBrowser: string;
    providerUnavailable: string;
    methodNotAllowed: string;
    noDocumentToSign: string;
    invalidInput: string;
    tooManyRequests: string;
    unavailable: string;
    unexpected: string;
  };
  /** Names of the secure methods as people know them. */
  methods: Record<TSecureSigningMethod, string>;
}

import { signableDocumentsFor } from "@esign/schema";

export interface CaseFileDocument {
  id: number;
  title: string;
  name: string;
  signable: boolean;
  roles: string[];
  documentOrder: number | null;
  fileSha256: string;
  signedSha256: string | null;
}

/** visibilityMode 1 shows a signer only the documents they must sign; 0 shows every document. */
export function documentsVisibleTo<D extends CaseFileDocument>(docs: readonly D[], visibilityMode: number, role: string): D[] {
  return visibilityMode === 1 ? signableDocumentsFor(docs, role) : [...docs];
}

/** documentOrder first (unset last), then creation order. */
export function inDocumentOrder<D extends CaseFileDocument>(docs: readonly D[]): D[] {
  return [...docs].sort((a, b) => (a.documentOrder ?? Number.MAX_SAFE_INTEGER) - (b.documentOrder ?? Number.MAX_SAFE_INTEGER) || a.id - b.id);
}

/** The name displayed for a case file's sender: its senderName, else the customer's name. */
export function senderDisplayName(senderName: string | null, customerName: string): string {
  return senderName?.trim() || customerName;
}

/** The From display name: the case file's senderName when it has one, else MAIL_FROM's own name. */
export function fromNameOf(senderName: string | null): string | undefined {
  return senderName?.trim() || undefined;
}

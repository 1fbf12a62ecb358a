import { AppError } from "@esign/errors";
import { decryptSecret, sha256Hex, type Keyring, type CaseFile, type Db, type Document, type Signer } from "@esign/db";

/** A signing link that does not exist (or was never ours): the same answer for every unknown token. */
export const linkNotFound = () => new AppError("not_found", "This signing link does not exist");

/** The token of a signing link: 32 random bytes in base64url (see @esign/db newSigningToken). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface SigningContext {
  token: string;
  tokenHash: string;
  signer: Signer;
  caseFile: CaseFile;
  documents: Document[];
}

const WITH_CASE_FILE = { signer: { include: { caseFile: { include: { documents: true } } } } } as const;

function contextOf(token: string, tokenHash: string, linkSigner: Signer & { caseFile: CaseFile & { documents: Document[] } }): SigningContext {
  const { caseFile, ...signer } = linkSigner;
  const { documents, ...cf } = caseFile;
  return { token, tokenHash, signer, caseFile: cf, documents: sortDocuments(documents) };
}

/** Token -> sha256 -> link -> signer and case file. A malformed token costs no query. */
export async function loadSigningContext(db: Db, token: string | undefined): Promise<SigningContext> {
  if (!token || !TOKEN.test(token)) throw linkNotFound();
  const tokenHash = sha256Hex(token);
  const link = await db.signingLink.findUnique({ where: { tokenHash }, include: WITH_CASE_FILE });
  if (!link) throw linkNotFound();
  return contextOf(token, tokenHash, link.signer);
}

/**
 * The signer an identity login was for (its sealed state names the signer), with the link's token
 * read back from SigningLink.tokenEnc: every login returns to one callback address, not to the link's.
 */
export async function loadSigningContextOfSigner(db: Db, signerId: number, encryptionKey: Keyring): Promise<SigningContext> {
  const link = await db.signingLink.findUnique({ where: { signerId }, include: WITH_CASE_FILE });
  if (!link) throw linkNotFound();
  return contextOf(decryptSecret(link.tokenEnc, encryptionKey), link.tokenHash, link.signer);
}

/** Display order: documentOrder first (unordered ones last), then creation order. */
export function sortDocuments<D extends { id: number; documentOrder: number | null }>(docs: readonly D[]): D[] {
  return [...docs].sort((a, b) => (a.documentOrder ?? Number.MAX_SAFE_INTEGER) - (b.documentOrder ?? Number.MAX_SAFE_INTEGER) || a.id - b.id);
}

export const signingPath = (token: string) => `/sign/${token}`;

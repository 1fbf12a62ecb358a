/**
 * Matching rules 2-3 of the spec, as one function for every service: a signable document that lists
 * roles may be signed only by signers with one of them; one without roles is open to every signer.
 */
export interface RoleScopedDocument {
  signable?: boolean;
  roles?: readonly string[] | null;
}

export function maySignDocument(doc: RoleScopedDocument, signerRole: string): boolean {
  if (doc.signable === false) return false;
  const roles = doc.roles ?? [];
  return roles.length === 0 || roles.includes(signerRole);
}

export function signableDocumentsFor<D extends RoleScopedDocument>(docs: readonly D[], signerRole: string): D[] {
  return docs.filter((d) => maySignDocument(d, signerRole));
}

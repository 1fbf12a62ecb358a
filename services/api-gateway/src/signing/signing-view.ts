import type { Document } from "@esign/db";
import { maySignDocument, SIGNER_STATUS } from "@esign/schema";
import type { TSecureSigningMethod } from "@esign/schema";
import { allowedMethods } from "./signing-methods";
import { signingPath, type SigningContext } from "./signing-link";
import type { SigningView } from "./signing-schemas";

export type { SigningView };

export interface VisibleDocument {
  doc: Document;
  /** Whether this signer may sign it (signable and role-matching): matching rules 2-3. */
  maySign: boolean;
}

/** visibilityMode 0: every document; 1: only the ones this signer must sign. */
export function visibleDocuments(ctx: Pick<SigningContext, "caseFile" | "documents" | "signer">): VisibleDocument[] {
  const all = ctx.documents.map((doc) => ({ doc, maySign: maySignDocument(doc, ctx.signer.role) }));
  return ctx.caseFile.visibilityMode === 1 ? all.filter((d) => d.maySign) : all;
}

export const documentsToSign = (ctx: Pick<SigningContext, "documents" | "signer">) => ctx.documents.filter((d) => maySignDocument(d, ctx.signer.role));

function earliest(...dates: (Date | null)[]): Date | null {
  const set = dates.filter((d): d is Date => d !== null);
  return set.length === 0 ? null : new Date(Math.min(...set.map((d) => d.getTime())));
}

/** `secure`: the signer's secure methods the configured identity provider serves (none without one). */
export function buildView(ctx: SigningContext, publicBaseUrl: string, secure: readonly TSecureSigningMethod[]): SigningView {
  const { signer, caseFile } = ctx;
  const page = `${publicBaseUrl}${signingPath(ctx.token)}`;
  const signed = signer.status === SIGNER_STATUS.signed;
  const allowed = allowedMethods(signer);
  const methods = { insecure: allowed.insecure, secure: allowed.secure.filter((m) => secure.includes(m)) };
  const hasMethod = methods.insecure.length + methods.secure.length > 0;
  return {
    signer: { id: signer.id, name: signer.name, role: signer.role, onBehalfOf: signer.onBehalfOf, status: signer.status },
    caseFile: {
      id: caseFile.id,
      title: caseFile.title,
      status: caseFile.status,
      sensitiveData: caseFile.sensitiveData,
      visibilityMode: caseFile.visibilityMode,
    },
    state: signed ? "signed" : "pending",
    signedAt: signer.signedAt?.toISOString() ?? null,
    signatureMethod: signed ? signer.signatureMethod : null,
    canSign: !signed && hasMethod && documentsToSign(ctx).length > 0,
    expireAt: earliest(signer.expireAt, caseFile.expireAt)?.toISOString() ?? null,
    documents: visibleDocuments(ctx).map(({ doc, maySign }) => ({
      id: doc.id,
      title: doc.title,
      name: doc.name,
      signable: doc.signable,
      maySign,
      url: `${page}/documents/${doc.id}`,
    })),
    methods: signed ? { insecure: [], secure: [] } : methods,
    links: {
      page,
      sign: `${page}/sign`,
      reject: `${page}/reject`,
      secureStart: Object.fromEntries(methods.secure.map((m) => [m, `${page}/secure/${encodeURIComponent(m)}/start`])),
    },
  };
}

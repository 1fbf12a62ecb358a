import type { CaseFile, CcRecipient, Document, Prisma, Signer } from "@esign/db";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";

export type FullCaseFile = CaseFile & { signers: Signer[]; documents: Document[]; ccRecipients: CcRecipient[] };

export const caseFileNotFound = () => new AppError("not_found", "Case file not found");
export const documentNotFound = () => new AppError("not_found", "Document not found");

/** What a case file is read with for its answer (presentCaseFile), in the order it is presented. */
export const CASEFILE_RELATIONS = {
  signers: { orderBy: { id: "asc" } },
  documents: { orderBy: [{ documentOrder: "asc" }, { id: "asc" }] },
  ccRecipients: { orderBy: { id: "asc" } },
} as const satisfies Prisma.CaseFileInclude;

/** Another customer's case file answers exactly like a missing one: existence is not disclosed. */
export async function ownedCaseFile(ctx: GatewayContext, customerId: number, id: number): Promise<FullCaseFile> {
  const caseFile = await ctx.db.caseFile.findFirst({ where: { id, customerId }, include: CASEFILE_RELATIONS });
  if (!caseFile) throw caseFileNotFound();
  return caseFile;
}

/** A page of the customer's case files, whole, in the order of `ids` (a list's page); ids of others are left out. */
export async function ownedCaseFiles(ctx: GatewayContext, customerId: number, ids: readonly number[]): Promise<FullCaseFile[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db.caseFile.findMany({ where: { id: { in: [...ids] }, customerId }, include: CASEFILE_RELATIONS });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A document with its case file, by the document's own id (Penneo's `/documents/{id}` paths). */
export async function ownedDocument(ctx: GatewayContext, customerId: number, id: number): Promise<{ document: Document; caseFile: CaseFile }> {
  const document = await ctx.db.document.findFirst({ where: { id, caseFile: { customerId } }, include: { caseFile: true } });
  if (!document) throw documentNotFound();
  const { caseFile, ...doc } = document;
  return { document: doc, caseFile };
}

/**
 * A signer with its case file and signing link, by the signer's own id (Penneo's `signingrequests/{id}`:
 * a signing request's id is its signer's). Another customer's signer answers like a missing one.
 */
export async function ownedSigner(ctx: GatewayContext, customerId: number, signerId: number) {
  const signer = await ctx.db.signer.findFirst({ where: { id: signerId, caseFile: { customerId } }, include: { caseFile: true, signingLink: true } });
  if (!signer) throw new AppError("not_found", "Signing request not found");
  return signer;
}

/** A page of the documents of the customer's case files, each with its case file, in the order of `ids`. */
export async function ownedDocuments(ctx: GatewayContext, customerId: number, ids: readonly number[]): Promise<{ document: Document; caseFile: CaseFile }[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db.document.findMany({ where: { id: { in: [...ids] }, caseFile: { customerId } }, include: { caseFile: true } });
  const byId = new Map(rows.map(({ caseFile, ...document }) => [document.id, { document, caseFile }]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

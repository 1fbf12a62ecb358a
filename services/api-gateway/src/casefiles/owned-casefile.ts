import { z } from "zod";
import type { CaseFile, CcRecipient, Document, Signer } from "@esign/db";
import { AppError } from "@esign/errors";
import type { GatewayContext } from "../context";

export const ZId = z.coerce.number().int().positive().max(2_147_483_647);

export type FullCaseFile = CaseFile & { signers: Signer[]; documents: Document[]; ccRecipients: CcRecipient[] };

export const caseFileNotFound = () => new AppError("not_found", "Case file not found");
export const documentNotFound = () => new AppError("not_found", "Document not found");

/** Another customer's case file answers exactly like a missing one: existence is not disclosed. */
export async function ownedCaseFile(ctx: GatewayContext, customerId: number, rawId: unknown): Promise<FullCaseFile> {
  const id = ZId.safeParse(rawId);
  if (!id.success) throw caseFileNotFound();
  const caseFile = await ctx.db.caseFile.findFirst({
    where: { id: id.data, customerId },
    include: {
      signers: { orderBy: { id: "asc" } },
      documents: { orderBy: [{ documentOrder: "asc" }, { id: "asc" }] },
      ccRecipients: { orderBy: { id: "asc" } },
    },
  });
  if (!caseFile) throw caseFileNotFound();
  return caseFile;
}

/** A document with its case file, by the document's own id (Penneo's `/documents/{id}` paths). */
export async function ownedDocument(ctx: GatewayContext, customerId: number, rawId: unknown): Promise<{ document: Document; caseFile: CaseFile }> {
  const id = ZId.safeParse(rawId);
  if (!id.success) throw documentNotFound();
  const document = await ctx.db.document.findFirst({ where: { id: id.data, caseFile: { customerId } }, include: { caseFile: true } });
  if (!document) throw documentNotFound();
  const { caseFile, ...doc } = document;
  return { document: doc, caseFile };
}

import { UnreadablePdfError, countPages } from "@esign/seal";
import type { Document } from "@esign/db";
import type { WorkerContext } from "../context";
import { auditTrailFor, firstOpenings, type CaseFileForAudit } from "./audit-trail-input";
import { UnusableDocumentError } from "./unusable-document";

const labelOf = (doc: Document) => `document "${doc.title}" (${doc.name})`;

async function readOriginal(ctx: WorkerContext, doc: Document): Promise<Buffer> {
  if (!(await ctx.storage.exists(doc.fileSha256))) throw new UnusableDocumentError(`The file of ${labelOf(doc)} is missing from storage`);
  return ctx.storage.readAll(doc.fileSha256);
}

/** The parser's words stay in the log: the reason is meant for the case file's owner. */
function unusable(ctx: WorkerContext, doc: Document, err: UnreadablePdfError): UnusableDocumentError {
  ctx.logger.warn("unreadable PDF", { documentId: doc.id, detail: err.message });
  return new UnusableDocumentError(`The file of ${labelOf(doc)} is not a readable PDF`);
}

/**
 * Stores the sealed copy of each signable document (original + audit trail + PAdES seal) and records
 * its address. Every copy is derived from the ORIGINAL upload, and a document that already has its
 * sealed copy is skipped: a retry after a crash neither re-seals a finished document nor stacks a
 * second audit trail on one.
 */
export async function sealSignableDocuments(ctx: WorkerContext, caseFile: CaseFileForAudit): Promise<void> {
  const pending: Document[] = [];
  for (const doc of caseFile.documents) {
    if (!doc.signable) continue;
    if (doc.signedSha256 && (await ctx.storage.exists(doc.signedSha256))) continue;
    pending.push(doc);
  }
  if (pending.length === 0) return;
  const pageCounts = new Map<number, number>();
  for (const doc of caseFile.documents) {
    try {
      pageCounts.set(doc.id, await countPages(await readOriginal(ctx, doc)));
    } catch (err) {
      if (err instanceof UnreadablePdfError) throw unusable(ctx, doc, err);
      throw err;
    }
  }
  const opened = await firstOpenings(ctx.db, caseFile);
  for (const doc of pending) {
    const started = process.hrtime.bigint();
    let sealed: Awaited<ReturnType<typeof ctx.sealer.seal>>;
    try {
      sealed = await ctx.sealer.seal(await readOriginal(ctx, doc), auditTrailFor(caseFile, doc, pageCounts, opened, new Date()));
    } catch (err) {
      if (err instanceof UnreadablePdfError) throw unusable(ctx, doc, err);
      throw err;
    }
    const signedSha256 = await ctx.storage.put(Buffer.from(sealed.bytes));
    await ctx.db.document.update({ where: { id: doc.id }, data: { signedSha256, sealedAt: new Date(), sealLevel: sealed.level } });
    ctx.logger.info("document sealed", {
      documentId: doc.id,
      level: sealed.level,
      auditTrailPages: sealed.auditTrailPages,
      bytes: sealed.bytes.length,
      ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
    });
  }
}

import { randomUUID } from "node:crypto";
import { emitEvent, emitEvents, type Tx } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS, caseFileEvent, signerEvent } from "@esign/schema";
import type { WorkerContext } from "../context";
import { lockCaseFile } from "./lock-casefile";
import { sealSignableDocuments } from "./seal-documents";
import { UnusableDocumentError } from "./unusable-document";

export type FinalizeOutcome = "completed" | "failed" | "unchanged";

/** signed (4) -> completed (5): `sign.casefile.completed` and `sign.signer.finalized` per signer who signed. */
async function completeCaseFile(tx: Tx, caseFileId: number, now: Date): Promise<boolean> {
  const caseFile = await lockCaseFile(tx, caseFileId);
  if (!caseFile || caseFile.status !== CASEFILE_STATUS.signed) return false;
  const unsigned = await tx.document.count({ where: { caseFileId, signable: true, signedSha256: null } });
  if (unsigned > 0) throw new Error(`${unsigned} signable document(s) have no signed copy yet`);
  const status = CASEFILE_STATUS.completed;
  await tx.caseFile.update({ where: { id: caseFileId }, data: { status, completedAt: now } });
  const signers = await tx.signer.findMany({ where: { caseFileId, status: SIGNER_STATUS.signed }, select: { id: true }, orderBy: { id: "asc" } });
  // One statement, in this order: the case file's event first, then each signer's (seq follows it).
  await emitEvents(tx, [
    caseFileEvent(caseFile, status, "sign.casefile.completed"),
    ...signers.map((s) => signerEvent(caseFile, status, s.id, "sign.signer.finalized")),
  ]);
  return true;
}

/** signed (4) -> failed (6) with the reason, and `sign.casefile.failed`. */
async function failCaseFile(tx: Tx, caseFileId: number, reason: string, now: Date): Promise<boolean> {
  const caseFile = await lockCaseFile(tx, caseFileId);
  if (!caseFile || caseFile.status !== CASEFILE_STATUS.signed) return false;
  const status = CASEFILE_STATUS.failed;
  await tx.caseFile.update({ where: { id: caseFileId }, data: { status, failedAt: now, failureReason: reason } });
  await emitEvent(tx, caseFileEvent(caseFile, status, "sign.casefile.failed"));
  return true;
}

/**
 * Finalizes a signed case file: sealed PDFs first (outside any transaction: sealing may take a
 * while and must not hold the row lock), then status 5 and the events in one transaction. A document
 * that can never be signed fails the case file at once; any other error is retried by BullMQ and
 * fails the case file only on the last attempt. A case file not in status 4 (already completed,
 * failed, ...) is left alone.
 */
export async function finalizeCaseFile(ctx: WorkerContext, caseFileId: number, opts: { lastAttempt: boolean }): Promise<FinalizeOutcome> {
  const caseFile = await ctx.db.caseFile.findUnique({
    where: { id: caseFileId },
    include: {
      documents: { orderBy: [{ documentOrder: "asc" }, { id: "asc" }] },
      signers: { orderBy: [{ signOrder: "asc" }, { signedAt: "asc" }, { id: "asc" }] },
    },
  });
  if (!caseFile || caseFile.status !== CASEFILE_STATUS.signed) return "unchanged";
  const log = ctx.logger.child({ caseFileId });
  const fail = async (reason: string): Promise<FinalizeOutcome> =>
    (await ctx.db.$transaction((tx) => failCaseFile(tx, caseFileId, reason, new Date()))) ? "failed" : "unchanged";
  try {
    await sealSignableDocuments(ctx, caseFile);
    return (await ctx.db.$transaction((tx) => completeCaseFile(tx, caseFileId, new Date()))) ? "completed" : "unchanged";
  } catch (err) {
    if (err instanceof UnusableDocumentError) {
      log.warn("finalization failed for good", { reason: err.message });
      return fail(err.message);
    }
    if (opts.lastAttempt) {
      const errorId = randomUUID();
      log.error("finalization failed on its last attempt", { errorId, err });
      await fail(`Internal error while finalizing the signed documents (errorId ${errorId})`);
    }
    throw err;
  }
}

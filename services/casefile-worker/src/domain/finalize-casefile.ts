import { randomUUID } from "node:crypto";
import { CASEFILE_STATUS } from "@esign/schema";
import type { WorkerContext } from "../context";
import { completeCaseFile, failCaseFile } from "./complete-casefile";
import { sealSignableDocuments } from "./seal-documents";
import { UnusableDocumentError } from "./unusable-document";

export type FinalizeOutcome = "completed" | "failed" | "unchanged";

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
  const fail = async (reason: string): Promise<FinalizeOutcome> => ((await failCaseFile(ctx.db, caseFileId, reason, new Date())) ? "failed" : "unchanged");
  try {
    await sealSignableDocuments(ctx, caseFile);
    return (await completeCaseFile(ctx.db, caseFileId, new Date())) ? "completed" : "unchanged";
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

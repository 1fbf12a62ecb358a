import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import type { WorkerContext } from "../context";
import { roundSignerSelect } from "./activate-round";
import { enqueueAt, jobIds } from "./casefile-jobs";
import { planRound } from "./signer-rounds";

/**
 * Makes sure every delayed job the case file's current state calls for exists: `expire` at the case
 * file's expireAt, `expire-signer` at each unsigned signer's expireAt, `activate-signer` at the
 * activeAt of current-round signers still waiting for it. Called after each committed state change
 * (never inside the transaction: a job must not run before the change it reacts to is visible).
 * Safe to repeat: the ids are deterministic.
 */
export async function scheduleCaseFileTimers(ctx: WorkerContext, caseFileId: number, now: Date = new Date()): Promise<void> {
  const caseFile = await ctx.db.caseFile.findUnique({
    where: { id: caseFileId },
    select: { id: true, status: true, activate: true, expireAt: true },
  });
  if (!caseFile) return;
  const pending = caseFile.status === CASEFILE_STATUS.pending;
  const awaitingSend = caseFile.status === CASEFILE_STATUS.new && caseFile.activate;
  if (caseFile.expireAt && (pending || awaitingSend)) {
    await enqueueAt(ctx, "expire", { caseFileId }, jobIds.expire(caseFileId, caseFile.expireAt), caseFile.expireAt);
  }
  if (!pending) return;

  const signers = await ctx.db.signer.findMany({ where: { caseFileId }, select: roundSignerSelect });
  for (const s of signers) {
    const unsigned = s.status === SIGNER_STATUS.new || s.status === SIGNER_STATUS.pending;
    if (unsigned && s.expireAt && !s.expiredAt) {
      await enqueueAt(ctx, "expire-signer", { signerId: s.id }, jobIds.expireSigner(s.id, s.expireAt), s.expireAt);
    }
  }
  for (const s of planRound(signers, now).activateLater) {
    if (s.activeAt) await enqueueAt(ctx, "activate-signer", { signerId: s.id }, jobIds.activateSigner(s.id, s.activeAt), s.activeAt);
  }
}

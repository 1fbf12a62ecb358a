import type { Tx } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { lockCaseFile } from "./lock-casefile";

export type ExpireSignerOutcome = { kind: "expired"; caseFileId: number } | { kind: "unchanged" } | { kind: "early"; at: Date };

/**
 * Ends the access of a signer who has not signed by its expireAt: expiredAt is set and the status
 * stays (the contract has no signer status for it; the gateway answers "expired" from expireAt /
 * expiredAt). The spec has no event type for it, so none is written. The signer keeps blocking its
 * round: it has not signed.
 */
export async function expireSigner(tx: Tx, signerId: number, now: Date = new Date()): Promise<ExpireSignerOutcome> {
  const ref = await tx.signer.findUnique({ where: { id: signerId }, select: { caseFileId: true } });
  if (!ref) return { kind: "unchanged" };
  const caseFile = await lockCaseFile(tx, ref.caseFileId);
  if (!caseFile || caseFile.status !== CASEFILE_STATUS.pending) return { kind: "unchanged" };
  // Read again under the lock: the signer may have signed while this job waited for it.
  const signer = await tx.signer.findUnique({ where: { id: signerId } });
  if (!signer?.expireAt) return { kind: "unchanged" };
  // Already marked by an earlier run whose follow-up advance may not have been enqueued: report it again.
  if (signer.expiredAt) return { kind: "expired", caseFileId: caseFile.id };
  if (signer.status !== SIGNER_STATUS.new && signer.status !== SIGNER_STATUS.pending) return { kind: "unchanged" };
  if (signer.expireAt.getTime() > now.getTime()) return { kind: "early", at: signer.expireAt };
  await tx.signer.update({ where: { id: signerId }, data: { expiredAt: now } });
  return { kind: "expired", caseFileId: caseFile.id };
}

import type { Tx } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { activateCurrentRound } from "./activate-round";
import { lockCaseFile } from "./lock-casefile";

export type ActivateSignerOutcome = { kind: "activated"; signerIds: number[] } | { kind: "unchanged" } | { kind: "early"; at: Date };

/**
 * A signer's activeAt has come. If its round is the current one it is activated like any other signer
 * of the round; if its round is still ahead nothing happens now - advance activates it when the round
 * is reached, since its activeAt has passed by then.
 */
export async function activateSigner(tx: Tx, signerId: number, now: Date = new Date()): Promise<ActivateSignerOutcome> {
  const ref = await tx.signer.findUnique({ where: { id: signerId }, select: { caseFileId: true } });
  if (!ref) return { kind: "unchanged" };
  const caseFile = await lockCaseFile(tx, ref.caseFileId);
  if (!caseFile || caseFile.status !== CASEFILE_STATUS.pending) return { kind: "unchanged" };
  const signer = await tx.signer.findUnique({ where: { id: signerId }, select: { status: true, activeAt: true } });
  if (!signer || signer.status !== SIGNER_STATUS.new) return { kind: "unchanged" };
  if (signer.activeAt && signer.activeAt.getTime() > now.getTime()) return { kind: "early", at: signer.activeAt };
  const activated = await activateCurrentRound(tx, caseFile, caseFile.status, now);
  return activated.length > 0 ? { kind: "activated", signerIds: activated.map((s) => s.id) } : { kind: "unchanged" };
}

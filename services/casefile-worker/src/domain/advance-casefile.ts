import type { Tx } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";
import { activateCurrentRound, roundSignerSelect } from "./activate-round";
import { lockCaseFile } from "./lock-casefile";
import { everyoneSigned } from "./signer-rounds";

export type AdvanceOutcome =
  /** Not pending (rejected, expired, already signed, ...) or unknown: nothing to do. */
  | { kind: "unchanged" }
  /** Still pending; `activated` signers of the (possibly new) current round were just activated. */
  | { kind: "pending"; activated: number[] }
  /** Every signer has signed: status 4, finalization is owed. */
  | { kind: "signed" };

/**
 * Re-evaluates a pending case file after a signer signed, was deleted or expired, or a signer's
 * activeAt came: activates whoever of the current round may now sign, or - when everyone taking part
 * has signed - moves the case file to signed (4). Idempotent: it only ever moves a signer from 0 to 1
 * and the case file from 1 to 4, so a second run over the same state changes nothing.
 */
export async function advanceCaseFile(tx: Tx, caseFileId: number, now: Date = new Date()): Promise<AdvanceOutcome> {
  const caseFile = await lockCaseFile(tx, caseFileId);
  if (!caseFile || caseFile.status !== CASEFILE_STATUS.pending) return { kind: "unchanged" };
  const signers = await tx.signer.findMany({ where: { caseFileId }, select: roundSignerSelect });
  if (everyoneSigned(signers)) {
    await tx.caseFile.update({ where: { id: caseFileId }, data: { status: CASEFILE_STATUS.signed, signedAt: now } });
    // The spec has no event for "signed": sign.casefile.completed follows once the signed PDFs exist.
    return { kind: "signed" };
  }
  const activated = await activateCurrentRound(tx, caseFile, caseFile.status, now);
  return { kind: "pending", activated: activated.map((s) => s.id) };
}

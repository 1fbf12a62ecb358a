import type { Tx } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { activateCurrentRound, roundSignerSelect } from "./activate-round";
import { lockCaseFile } from "./lock-casefile";
import type { TimerSnapshot } from "./schedule-timers";
import { everyoneSigned } from "./signer-rounds";

export type AdvanceOutcome =
  /** Not pending (rejected, expired, already signed, ...) or unknown: nothing to do. */
  | { kind: "unchanged" }
  /** Still pending; `activated` signers of the (possibly new) current round were just activated. */
  | { kind: "pending"; activated: number[] }
  /** Every signer has signed: status 4, finalization is owed. */
  | { kind: "signed" };

/** The outcome, and the case file's state as the transaction left it (undefined: no such case file). */
export interface Advanced {
  outcome: AdvanceOutcome;
  /** What its timers depend on, as committed: the caller schedules them without reading it back. */
  state: TimerSnapshot | undefined;
}

/**
 * Re-evaluates a pending case file after a signer signed, was deleted or expired, or a signer's
 * activeAt came: activates whoever of the current round may now sign, or - when everyone taking part
 * has signed - moves the case file to signed (4). Idempotent: it only ever moves a signer from 0 to 1
 * and the case file from 1 to 4, so a second run over the same state changes nothing. The signers
 * are read once, under the case file's lock (which every change of a signer takes), so the state it
 * returns is the committed one.
 */
export async function advanceCaseFile(tx: Tx, caseFileId: number, now: Date = new Date()): Promise<Advanced> {
  const caseFile = await lockCaseFile(tx, caseFileId);
  if (!caseFile) return { outcome: { kind: "unchanged" }, state: undefined };
  // Timers read signers only while the case file is pending (loadTimerSnapshot).
  if (caseFile.status !== CASEFILE_STATUS.pending) return { outcome: { kind: "unchanged" }, state: { caseFile, signers: [] } };
  const signers = await tx.signer.findMany({ where: { caseFileId }, select: roundSignerSelect });
  if (everyoneSigned(signers)) {
    await tx.caseFile.update({ where: { id: caseFileId }, data: { status: CASEFILE_STATUS.signed, signedAt: now } });
    // The spec has no event for "signed": sign.casefile.completed follows once the signed PDFs exist.
    return { outcome: { kind: "signed" }, state: { caseFile: { ...caseFile, status: CASEFILE_STATUS.signed }, signers: [] } };
  }
  const activated = await activateCurrentRound(tx, caseFile, caseFile.status, now, signers);
  // Only status 0 moves (to 1): a signer planned for activation that had already moved is pending too.
  const ids = new Set(activated.map((s) => s.id));
  const after = signers.map((s) => (ids.has(s.id) && s.status === SIGNER_STATUS.new ? { ...s, status: SIGNER_STATUS.pending, activatedAt: now } : s));
  return { outcome: { kind: "pending", activated: activated.map((s) => s.id) }, state: { caseFile, signers: after } };
}

import type { Tx } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";
import { activateCurrentRound } from "./activate-round";
import { lockCaseFile } from "./lock-casefile";

/**
 * Sends a case file: new -> pending with sentAt, and the lowest signOrder round becomes active
 * (`sign.signer.requestActivated` per signer, in the same transaction). Idempotent: a case file that is
 * no longer new is left alone, so a duplicate send job changes nothing. Delayed jobs (expiry, later
 * activations) are the caller's to schedule after commit: see scheduleCaseFileTimers.
 */
export async function sendCaseFile(tx: Tx, caseFileId: number, now: Date = new Date()): Promise<boolean> {
  const caseFile = await lockCaseFile(tx, caseFileId);
  if (!caseFile || caseFile.status !== CASEFILE_STATUS.new) return false;
  // A send that comes after expireAt (workers down, sendAt close to expireAt) must not mail signers a
  // request that is already void: the expire job finds the case file new-but-activated and expires it.
  if (caseFile.expireAt && caseFile.expireAt.getTime() <= now.getTime()) return false;
  const status = CASEFILE_STATUS.pending;
  await tx.caseFile.update({ where: { id: caseFileId }, data: { status, sentAt: now } });
  await activateCurrentRound(tx, caseFile, status, now);
  return true;
}

import { recordLog, type CaseFile, type Tx } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";
import { activateCurrentRound } from "./activate-round";
import type { RoundSigner } from "./signer-rounds";
import { lockCaseFile } from "./lock-casefile";

/**
 * Sends a case file: new -> pending with sentAt, and the lowest signOrder round becomes active
 * (`sign.signer.requestActivated` per signer, in the same transaction). Idempotent: a case file that is
 * no longer new is left alone, so a duplicate send job changes nothing. Delayed jobs (expiry, later
 * activations) are the caller's to schedule after commit: see scheduleCaseFileTimers.
 */
export async function sendCaseFile(tx: Tx, caseFileId: number, opts: { logged?: boolean; now?: Date } = {}): Promise<boolean> {
  const caseFile = await lockCaseFile(tx, caseFileId);
  if (!caseFile) return false;
  return (await sendLocked(tx, caseFile, opts.now ?? new Date(), opts.logged === true)) !== undefined;
}

/**
 * Whether a case file in this state may be sent now: only a new one, and not after its expireAt. A send
 * that comes after expireAt (workers down, sendAt close to expireAt) must not mail signers a request
 * that is already void: the expire job finds the case file new-but-activated and expires it.
 */
export function mayBeSent(caseFile: Pick<CaseFile, "status" | "expireAt">, now: Date): boolean {
  return caseFile.status === CASEFILE_STATUS.new && !(caseFile.expireAt && caseFile.expireAt.getTime() <= now.getTime());
}

async function sendLocked(tx: Tx, caseFile: CaseFile, now: Date, logged: boolean): Promise<RoundSigner[] | undefined> {
  if (!mayBeSent(caseFile, now)) return undefined;
  const status = CASEFILE_STATUS.pending;
  await tx.caseFile.update({ where: { id: caseFile.id }, data: { status, sentAt: now } });
  // Before the round's requestActivated entries: the log reads in the order things happened. Sent at
  // its sendAt by the platform (the user's part was the create that scheduled it), unless the user's
  // send or activate of a draft wrote the entry already, with who and from where.
  if (!logged) {
    const event = caseFile.sendSigningRequests ? "sent" : "activated";
    await recordLog(tx, [{ customerId: caseFile.customerId, caseFileId: caseFile.id, event, detail: { trigger: "sendAt" } }]);
  }
  return activateCurrentRound(tx, caseFile, status, now);
}

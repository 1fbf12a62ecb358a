import { eventRows, type CaseFile, type EventRows } from "@esign/db";
import { SIGNER_STATUS, signerEvent } from "@esign/schema";
import { planRound, type RoundSigner } from "./signer-rounds";

/** How long a job's transaction may sit idle holding a case file's lock (Prisma's default transaction limit, which these jobs had). */
export const CASEFILE_IDLE_LIMIT_MS = 5_000;

/** The current round's activation, planned from the signers read under the case file's lock. */
export interface RoundActivation {
  /** The signers to move from new (0) to pending (1), in signer order. */
  activateNow: RoundSigner[];
  /** Their `sign.signer.requestActivated` events, in that order (so the events' seq follows it). */
  written: EventRows;
  /** The signers as they are once the activation is committed (what the timers are scheduled from). */
  after: RoundSigner[];
}

/**
 * Plans the activation of the current round's signers whose access has started (status 1,
 * activatedAt, one `sign.signer.requestActivated` each: the relay turns it into the signing
 * request); the caller writes it (activateSignersSql, or the send's statement) before its COMMIT.
 * `caseFileStatus` is the status the events carry, as the transaction leaves it. Only new signers
 * are planned; under the lock they are all still new, and all move.
 */
export function planActivation(
  caseFile: Pick<CaseFile, "id" | "customerId">,
  caseFileStatus: number,
  signers: readonly RoundSigner[],
  now: Date,
): RoundActivation {
  const { activateNow } = planRound(signers, now);
  const ids = new Set(activateNow.map((s) => s.id));
  return {
    activateNow,
    written: eventRows(activateNow.map((s) => signerEvent(caseFile, caseFileStatus, s.id, "sign.signer.requestActivated"))),
    after: signers.map((s) => (ids.has(s.id) ? { ...s, status: SIGNER_STATUS.pending, activatedAt: now } : s)),
  };
}

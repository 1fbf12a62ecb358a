import { SIGNER_STATUS } from "@esign/schema";

/** What the round rules need of a signer. */
export interface RoundSigner {
  id: number;
  signOrder: number;
  status: number;
  activeAt: Date | null;
  expireAt: Date | null;
  expiredAt: Date | null;
}

/*
 * The signing-order rules, pure so that the jobs and the sweeper agree on them:
 * - a deleted signer takes no part: it neither blocks a round nor counts as a signature;
 * - a round is done when every other signer of it has signed; undeliverable, rejected or expired
 *   signers have not signed, so they hold their round (and the case file) where it is;
 * - the current round is the lowest signOrder that still has a signer who has not signed.
 */

export const takesPart = (s: RoundSigner): boolean => s.status !== SIGNER_STATUS.deleted;

export const hasSigned = (s: RoundSigner): boolean => s.status === SIGNER_STATUS.signed;

/** Expired when the expire-signer job marked it, or already due and the job has not run yet. */
export const isExpired = (s: RoundSigner, now: Date): boolean => s.expiredAt !== null || (s.expireAt !== null && s.expireAt.getTime() <= now.getTime());

export function currentRound(signers: readonly RoundSigner[]): number | null {
  let round: number | null = null;
  for (const s of signers) {
    if (takesPart(s) && !hasSigned(s) && (round === null || s.signOrder < round)) round = s.signOrder;
  }
  return round;
}

/** Every participating signer has signed, and there is at least one: a case file nobody signed is not signed. */
export function everyoneSigned(signers: readonly RoundSigner[]): boolean {
  const participants = signers.filter(takesPart);
  return participants.length > 0 && participants.every(hasSigned);
}

export interface RoundPlan {
  round: number | null;
  /** New signers of the current round whose access has started: they become pending now. */
  activateNow: RoundSigner[];
  /** New signers of the current round whose activeAt lies ahead: each waits for its activate-signer job. */
  activateLater: RoundSigner[];
}

export function planRound(signers: readonly RoundSigner[], now: Date): RoundPlan {
  const round = currentRound(signers);
  const waiting = signers.filter((s) => s.signOrder === round && s.status === SIGNER_STATUS.new && !isExpired(s, now));
  const started = (s: RoundSigner) => s.activeAt === null || s.activeAt.getTime() <= now.getTime();
  return { round, activateNow: waiting.filter(started), activateLater: waiting.filter((s) => !started(s)) };
}

import { AppError } from "@esign/errors";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";

export interface SignerFacts {
  status: number;
  activeAt: Date | null;
  expireAt: Date | null;
  expiredAt: Date | null;
  signedAt: Date | null;
  rejectedAt: Date | null;
}

export interface CaseFileFacts {
  status: number;
  expireAt: Date | null;
  expiredAt: Date | null;
}

/** Signer states in which the link can act: pending, and undeliverable (the mail bounced, the link still works). */
const ACTIONABLE: readonly number[] = [SIGNER_STATUS.pending, SIGNER_STATUS.undeliverable];

export const isActionableStatus = (status: number) => ACTIONABLE.includes(status);

const day = (d: Date | null) => (d ? `${d.toISOString().slice(0, 16).replace("T", " ")} UTC` : "");

/**
 * Why this signer cannot act on the link now, or null when it can. The order puts the final
 * states first (a signer who signed hears "already signed" even after the case file expired), then
 * time, then the states that may still change. Expiry is read from the timestamps too, so a link
 * closes on time even before the worker's expiry job has run.
 */
export function blockerFor(signer: SignerFacts, caseFile: CaseFileFacts, now: Date): AppError | null {
  if (signer.status === SIGNER_STATUS.deleted) return new AppError("signer_deleted", "You were removed from this signing request");
  if (caseFile.status === CASEFILE_STATUS.deleted) return new AppError("casefile_deleted", "This signing request was withdrawn");
  if (signer.status === SIGNER_STATUS.signed) {
    const at = signer.signedAt;
    return new AppError("already_signed", `You already signed these documents${at ? ` (${day(at)})` : ""}`, undefined, undefined, at ? { at } : undefined);
  }
  if (signer.status === SIGNER_STATUS.rejected) return new AppError("rejected", "You rejected this signing request");
  if (caseFile.status === CASEFILE_STATUS.rejected) return new AppError("casefile_rejected", "This signing request was rejected by a signer and is closed");
  if (caseFile.status === CASEFILE_STATUS.failed) return new AppError("casefile_failed", "This signing request failed and is closed");
  if (caseFile.status === CASEFILE_STATUS.signed || caseFile.status === CASEFILE_STATUS.completed) {
    return new AppError("casefile_completed", "This signing request is already completed");
  }
  const t = now.getTime();
  const expired =
    caseFile.status === CASEFILE_STATUS.expired ||
    caseFile.expiredAt !== null ||
    (caseFile.expireAt !== null && caseFile.expireAt.getTime() <= t) ||
    signer.expiredAt !== null ||
    (signer.expireAt !== null && signer.expireAt.getTime() <= t);
  if (expired) return new AppError("expired", "This signing link has expired");
  if (caseFile.status === CASEFILE_STATUS.new) return new AppError("not_yet_sent", "This signing request has not been sent yet");
  if (signer.status === SIGNER_STATUS.new || (signer.activeAt !== null && signer.activeAt.getTime() > t)) {
    const opens = signer.activeAt && signer.activeAt.getTime() > t ? signer.activeAt : null;
    const when = opens ? ` It opens ${day(opens)}.` : " It opens when the signers before you have signed.";
    return new AppError("not_active", `It is not your turn to sign yet.${when}`, undefined, undefined, opens ? { opens } : { waiting: "earlier signers" });
  }
  if (!isActionableStatus(signer.status)) return new AppError("not_active", "This signing link cannot be used in its current state");
  return null;
}

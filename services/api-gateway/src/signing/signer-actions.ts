import {
  emitEvent,
  emitEvents,
  lockCaseFileRow,
  lockSignerRow,
  run,
  runOne,
  type CaseFile,
  type DB,
  type Db,
  type Selectable,
  type Signer,
  type Tx,
} from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS, caseFileEvent, signerEvent } from "@esign/schema";
import type { RequestEvidence } from "../http/request-evidence";
import { blockerFor } from "./signer-state";
import {
  caseFileOfEventSql,
  claimOpenedSql,
  lockSignerForActionSql,
  markCaseFileRejectedSql,
  markRequestOpenedSql,
  markSignerRejectedSql,
  markSignerSignedSql,
  recentRequestOpenedSql,
} from "./signer-actions.sql";

/**
 * The signer's own actions, each one transaction: the case file row and then the signer row are
 * locked (the casefile-worker locks in the same order), the state is read again under the locks and
 * checked as at the door, then the change and its events are written together. Two requests racing
 * for the same signer serialize here, and the second one sees the first one's result.
 */

export interface SignerRef {
  signerId: number;
  caseFileId: number;
}

/** The signer as its action's transaction locked and read it (every column). */
export type LockedSigner = Selectable<DB["Signer"]>;

/** Locks the case file, then the signer (each statement reads its row as locked), and checks them again. */
async function lockFresh(tx: Tx, ref: SignerRef, now: Date): Promise<{ signer: LockedSigner; caseFile: CaseFile }> {
  const caseFile = await runOne(tx, lockCaseFileRow, { id: ref.caseFileId, customerId: undefined });
  const signer = await runOne(tx, lockSignerForActionSql, { signerId: ref.signerId });
  if (!caseFile || !signer) throw new Error(`signer ${ref.signerId} of case file ${ref.caseFileId} not found`);
  const blocker = blockerFor(signer, caseFile, now);
  if (blocker) throw blocker;
  return { signer, caseFile };
}

export interface Signature {
  /** text | draw | image | a secure method name */
  method: string;
  /** Typed name, content address of the image, or the identity provider's subject. */
  value: string;
  /** The image-upload method: also announced as sign.signer.signedWithImageUploadAndNAP. */
  imageUpload: boolean;
  /** Address and user agent of the signing request, for the audit trail. */
  evidence: RequestEvidence;
  /** Who an identity provider vouched for: the secure login that signs, or the validation before an insecure signature. */
  identity: VerifiedIdentity | null;
}

export interface VerifiedIdentity {
  /** The adapter's display name (the audit trail's "identity provider"). */
  provider: string;
  method: string;
  subject: string;
  /** Encrypted with ENCRYPTION_KEY; only when the signer's accessControl compared it. */
  nationalIdEnc: string | null;
  verifiedAt: Date;
}

/**
 * Signer -> signed (4) with `sign.signer.signed`. The case file's status is not touched: the relay
 * routes the event to the casefile-worker's `advance`, which opens the next round or completes.
 * `recheck` runs on the locked, fresh signer (method and documents) before anything is written.
 */
export async function recordSignature(db: Db, ref: SignerRef, sig: Signature, recheck: (signer: LockedSigner) => void, now = new Date()) {
  return db.$transaction(async (tx) => {
    const { signer, caseFile } = await lockFresh(tx, ref, now);
    recheck(signer);
    await run(tx, markSignerSignedSql, {
      signerId: signer.id,
      signedAt: now,
      signatureMethod: sig.method,
      signatureValue: sig.value,
      identityProvider: sig.identity?.provider ?? null,
      identityMethod: sig.identity?.method ?? null,
      identitySubject: sig.identity?.subject ?? null,
      identityNationalIdEnc: sig.identity?.nationalIdEnc ?? null,
      identityVerifiedAt: sig.identity?.verifiedAt ?? null,
      actionIp: sig.evidence.ip,
      actionUserAgent: sig.evidence.userAgent,
    });
    const signed = signerEvent(caseFile, caseFile.status, signer.id, "sign.signer.signed");
    const imageUpload = signerEvent(caseFile, caseFile.status, signer.id, "sign.signer.signedWithImageUploadAndNAP");
    await emitEvents(tx, sig.imageUpload ? [signed, imageUpload] : [signed]);
    return { signerId: signer.id, caseFileStatus: caseFile.status };
  });
}

/** Signer -> rejected (2) and case file -> rejected (2), with both events: one signer's no ends the case file. */
export async function recordRejection(db: Db, ref: SignerRef, reason: string | null, evidence: RequestEvidence, now = new Date()) {
  return db.$transaction(async (tx) => {
    const { signer, caseFile } = await lockFresh(tx, ref, now);
    const status = CASEFILE_STATUS.rejected;
    await run(tx, markSignerRejectedSql, {
      signerId: signer.id,
      rejectedAt: now,
      rejectReason: reason,
      actionIp: evidence.ip,
      actionUserAgent: evidence.userAgent,
    });
    await run(tx, markCaseFileRejectedSql, { caseFileId: caseFile.id, rejectedAt: now });
    await emitEvents(tx, [signerEvent(caseFile, status, signer.id, "sign.signer.rejected"), caseFileEvent(caseFile, status, "sign.casefile.rejected")]);
    return { signerId: signer.id, caseFileStatus: status };
  });
}

/**
 * Every opening is an `opened` event (the spec lets it repeat), but reloads and prefetches within
 * OPENED_EVENT_MIN_INTERVAL_MS of the last counted opening are not: the conditional update claims
 * the slot atomically, so replicas agree without shared memory. openedAt is the last counted opening.
 */
export const OPENED_EVENT_MIN_INTERVAL_MS = 10_000;

export async function recordOpened(db: Db, signer: Pick<Signer, "id">, caseFile: Pick<CaseFile, "id" | "status" | "customerId">, now = new Date()) {
  return db.$transaction(async (tx) => {
    const cutoff = new Date(now.getTime() - OPENED_EVENT_MIN_INTERVAL_MS);
    const claimed = await runOne(tx, claimOpenedSql, { signerId: signer.id, now, cutoff });
    if (!claimed) return false;
    await emitEvent(tx, signerEvent(caseFile, caseFile.status, signer.id, "sign.signer.opened"));
    return true;
  });
}

/**
 * `requestOpened` from the mail's tracking pixel, at most once per signer per minute (mail clients
 * fetch images repeatedly). Only the signer row is locked, so pixel storms queue per signer and
 * never wait on a case file lock; the window is measured in the database's clock.
 */
export const REQUEST_OPENED_MIN_INTERVAL_SECONDS = 60;

export async function recordRequestOpened(db: Db, signerId: number): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const row = await runOne(tx, lockSignerRow, { id: signerId, caseFileId: undefined });
    if (!row || row.status === SIGNER_STATUS.deleted) return false;
    const caseFile = await runOne(tx, caseFileOfEventSql, { caseFileId: row.caseFileId });
    if (!caseFile) throw new Error(`case file ${row.caseFileId} of signer ${signerId} not found`);
    const recent = await run(tx, recentRequestOpenedSql, { customerId: caseFile.customerId, signerId, withinSeconds: REQUEST_OPENED_MIN_INTERVAL_SECONDS });
    if (recent.length > 0) return false;
    // The first opening stays: it is when the signer's status became "request opened" (Penneo's 1).
    await run(tx, markRequestOpenedSql, { signerId });
    await emitEvent(tx, signerEvent(caseFile, caseFile.status, signerId, "sign.signer.requestOpened"));
    return true;
  });
}

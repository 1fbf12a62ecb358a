import {
  firstRead,
  lockCaseFileRow,
  lockSignerRow,
  runAndCommit,
  runOne,
  eventRows,
  sqlPool,
  withSqlTransaction,
  type CaseFile,
  type DB,
  type Db,
  type Selectable,
  type Signer,
  type SqlClient,
} from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS, caseFileEvent, signerEvent } from "@esign/schema";
import { signerAudit, type RequestEvidence } from "../http/request-evidence";
import { blockerFor } from "./signer-state";
import {
  claimOpenedSql,
  lockSignerForActionSql,
  markRequestOpenedSql,
  pixelStateSql,
  rejectSignerSql,
  signSignerSql,
  writeActionEventsSql,
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

/**
 * One signer action's transaction: BEGIN with the case file's lock and read (lockCaseFileRow, one
 * round trip), then the signer's (lockSignerForActionSql), both checked again as at the door; `write`
 * gets them and sends the action's one statement with the COMMIT (runAndCommit). Three round trips
 * where Prisma's interactive transaction took six (BEGIN, the two locks, the change, the events,
 * COMMIT), each through its engine. A blocker or a failed recheck rolls back and is thrown.
 */
async function lockedAction<T>(
  db: Db,
  ref: SignerRef,
  now: Date,
  write: (client: SqlClient, locked: { signer: LockedSigner; caseFile: CaseFile }) => Promise<T>,
): Promise<T> {
  return withSqlTransaction(
    sqlPool(db),
    async (client, [caseFile]) => {
      const signer = await runOne(client, lockSignerForActionSql, { signerId: ref.signerId });
      if (!caseFile || !signer) throw new Error(`signer ${ref.signerId} of case file ${ref.caseFileId} not found`);
      const blocker = blockerFor(signer, caseFile, now);
      if (blocker) throw blocker;
      return write(client, { signer, caseFile });
    },
    // The locks are held for three round trips and nothing else: a session left idle in the
    // transaction (a stalled process) ends and releases them.
    { idleTimeoutMs: ACTION_IDLE_LIMIT_MS, firstRead: firstRead(lockCaseFileRow, { id: ref.caseFileId, customerId: undefined }) },
  );
}

/** How long a signer action's transaction may sit idle holding its locks (Prisma's default transaction limit). */
const ACTION_IDLE_LIMIT_MS = 5_000;

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
  return lockedAction(db, ref, now, async (client, { signer, caseFile }) => {
    recheck(signer);
    // The log entry the event also is says who signed from where (the image variant is no entry of its own).
    const signed = signerEvent(caseFile, caseFile.status, signer.id, "sign.signer.signed", signerAudit(sig.evidence));
    const imageUpload = signerEvent(caseFile, caseFile.status, signer.id, "sign.signer.signedWithImageUploadAndNAP");
    await runAndCommit(client, signSignerSql, {
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
      written: eventRows(sig.imageUpload ? [signed, imageUpload] : [signed]),
    });
    return { signerId: signer.id, caseFileStatus: caseFile.status };
  });
}

/** Signer -> rejected (2) and case file -> rejected (2), with both events: one signer's no ends the case file. */
export async function recordRejection(db: Db, ref: SignerRef, reason: string | null, evidence: RequestEvidence, now = new Date()) {
  return lockedAction(db, ref, now, async (client, { signer, caseFile }) => {
    const status = CASEFILE_STATUS.rejected;
    const audit = signerAudit(evidence);
    await runAndCommit(client, rejectSignerSql, {
      signerId: signer.id,
      caseFileId: caseFile.id,
      rejectedAt: now,
      rejectReason: reason,
      actionIp: evidence.ip,
      actionUserAgent: evidence.userAgent,
      written: eventRows([
        signerEvent(caseFile, status, signer.id, "sign.signer.rejected", audit),
        caseFileEvent(caseFile, status, "sign.casefile.rejected", audit),
      ]),
    });
    return { signerId: signer.id, caseFileStatus: status };
  });
}

/**
 * Every opening is an `opened` event (the spec lets it repeat), but reloads and prefetches within
 * OPENED_EVENT_MIN_INTERVAL_MS of the last counted opening are not: the conditional update claims
 * the slot atomically, so replicas agree without shared memory. openedAt is the last counted opening.
 */
export const OPENED_EVENT_MIN_INTERVAL_MS = 10_000;

export async function recordOpened(
  db: Db,
  signer: Pick<Signer, "id">,
  caseFile: Pick<CaseFile, "id" | "status" | "customerId">,
  evidence: RequestEvidence,
  now = new Date(),
) {
  const cutoff = new Date(now.getTime() - OPENED_EVENT_MIN_INTERVAL_MS);
  // Two round trips: BEGIN with the claim, then the event with the COMMIT (or the COMMIT alone).
  return withSqlTransaction(
    sqlPool(db),
    async (client, [claimed]) => {
      if (!claimed) return false;
      const opened = signerEvent(caseFile, caseFile.status, signer.id, "sign.signer.opened", signerAudit(evidence));
      await runAndCommit(client, writeActionEventsSql, { written: eventRows([opened]) });
      return true;
    },
    { idleTimeoutMs: ACTION_IDLE_LIMIT_MS, firstRead: firstRead(claimOpenedSql, { signerId: signer.id, now, cutoff }) },
  );
}

/**
 * `requestOpened` from the mail's tracking pixel, at most once per signer per minute (mail clients
 * fetch images repeatedly). Only the signer row is locked, so pixel storms queue per signer and
 * never wait on a case file lock; the window is measured in the database's clock.
 */
export const REQUEST_OPENED_MIN_INTERVAL_SECONDS = 60;

/**
 * Three round trips where Prisma's interactive transaction took seven: BEGIN with the signer's lock
 * (firstRead), the case file and the recent check (pixelStateSql), then the mark and the event with
 * the COMMIT (or the COMMIT alone).
 */
export async function recordRequestOpened(db: Db, signerId: number, evidence: RequestEvidence): Promise<boolean> {
  return withSqlTransaction(
    sqlPool(db),
    async (client, [row]) => {
      if (!row || row.status === SIGNER_STATUS.deleted) return false;
      const caseFile = await runOne(client, pixelStateSql, { caseFileId: row.caseFileId, signerId, withinSeconds: REQUEST_OPENED_MIN_INTERVAL_SECONDS });
      if (!caseFile) throw new Error(`case file ${row.caseFileId} of signer ${signerId} not found`);
      if (caseFile.recent) return false;
      // The address is the mail client's (or its image proxy's) that fetched the tracking image.
      const opened = signerEvent(caseFile, caseFile.status, signerId, "sign.signer.requestOpened", signerAudit(evidence));
      await runAndCommit(client, markRequestOpenedSql, { signerId, written: eventRows([opened]) });
      return true;
    },
    { idleTimeoutMs: ACTION_IDLE_LIMIT_MS, firstRead: firstRead(lockSignerRow, { id: signerId, caseFileId: undefined }) },
  );
}

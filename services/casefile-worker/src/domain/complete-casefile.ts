import { eventRows, firstRead, lockCaseFileRow, runAndCommit, runOne, sqlPool, withSqlTransaction, type CaseFile, type Db, type SqlClient } from "@esign/db";
import { CASEFILE_STATUS, caseFileEvent, signerEvent } from "@esign/schema";
import { CASEFILE_IDLE_LIMIT_MS } from "./activate-round";
import { completeCaseFileSql, completionStateSql, failCaseFileSql } from "./complete-casefile.sql";

/*
 * The finalization's last step (finalize-casefile.ts runs it after the sealing, outside any
 * transaction): a signed case file completed or failed, with its events, in plain SQL.
 */

/**
 * A transaction on the signed case file under its lock (BEGIN with lockCaseFileRow's read, one round
 * trip); `write` runs only while it is still signed (4), else nothing is written and it answers false.
 */
function whileSigned(db: Db, caseFileId: number, write: (client: SqlClient, caseFile: CaseFile) => Promise<void>): Promise<boolean> {
  return withSqlTransaction(
    sqlPool(db),
    async (client, [caseFile]) => {
      if (!caseFile || caseFile.status !== CASEFILE_STATUS.signed) return false;
      await write(client, caseFile);
      return true;
    },
    // A session left idle holding the case file's lock (a stalled process) ends and releases it.
    { idleTimeoutMs: CASEFILE_IDLE_LIMIT_MS, firstRead: firstRead(lockCaseFileRow, { id: caseFileId, customerId: undefined }) },
  );
}

/**
 * signed (4) -> completed (5): `sign.casefile.completed` and `sign.signer.finalized` per signer who
 * signed. Three round trips (BEGIN with the lock, the documents' and signers' state, the change with
 * the COMMIT) where Prisma's interactive transaction took seven.
 */
export function completeCaseFile(db: Db, caseFileId: number, now: Date): Promise<boolean> {
  return whileSigned(db, caseFileId, async (client, caseFile) => {
    const state = await runOne(client, completionStateSql, { caseFileId });
    const unsigned = Number(state?.unsigned ?? 0);
    if (unsigned > 0) throw new Error(`${unsigned} signable document(s) have no signed copy yet`);
    const status = CASEFILE_STATUS.completed;
    // In this order: the case file's event first, then each signer's (seq follows it).
    const written = eventRows([
      caseFileEvent(caseFile, status, "sign.casefile.completed"),
      ...(state?.signedIds ?? []).map((id) => signerEvent(caseFile, status, Number(id), "sign.signer.finalized")),
    ]);
    await runAndCommit(client, completeCaseFileSql, { caseFileId, completedAt: now, written });
  });
}

/** signed (4) -> failed (6) with the reason, and `sign.casefile.failed`: two round trips where Prisma's transaction took five. */
export function failCaseFile(db: Db, caseFileId: number, reason: string, now: Date): Promise<boolean> {
  return whileSigned(db, caseFileId, async (client, caseFile) => {
    const written = eventRows([caseFileEvent(caseFile, CASEFILE_STATUS.failed, "sign.casefile.failed")]);
    await runAndCommit(client, failCaseFileSql, { caseFileId, failedAt: now, failureReason: reason, written });
  });
}

import { firstRead, lockCaseFileRow, run, runAndCommit, sqlPool, withSqlTransaction, type Db } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";
import { CASEFILE_IDLE_LIMIT_MS, planActivation } from "./activate-round";
import { activateSignersSql, markCaseFileSignedSql, roundSignersSql } from "./advance-casefile.sql";
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
 *
 * One transaction of three round trips in plain SQL (advance-casefile.sql.ts): BEGIN with the case
 * file's lock and read, the signers, then the change sent with the COMMIT (or the COMMIT alone). In
 * Prisma's interactive transaction it took four to six, the signers read and the changes written by
 * model queries.
 */
export async function advanceCaseFile(db: Db, caseFileId: number, now: Date = new Date()): Promise<Advanced> {
  return withSqlTransaction(
    sqlPool(db),
    async (client, [caseFile]): Promise<Advanced> => {
      if (!caseFile) return { outcome: { kind: "unchanged" }, state: undefined };
      // Timers read signers only while the case file is pending (loadTimerSnapshot).
      if (caseFile.status !== CASEFILE_STATUS.pending) return { outcome: { kind: "unchanged" }, state: { caseFile, signers: [] } };
      const signers = await run(client, roundSignersSql, { caseFileId });
      if (everyoneSigned(signers)) {
        await runAndCommit(client, markCaseFileSignedSql, { caseFileId, signedAt: now });
        // The spec has no event for "signed": sign.casefile.completed follows once the signed PDFs exist.
        return { outcome: { kind: "signed" }, state: { caseFile: { ...caseFile, status: CASEFILE_STATUS.signed }, signers: [] } };
      }
      const { activateNow, written, after } = planActivation(caseFile, caseFile.status, signers, now);
      if (activateNow.length > 0) await runAndCommit(client, activateSignersSql, { signerIds: activateNow.map((s) => s.id), activatedAt: now, written });
      return { outcome: { kind: "pending", activated: activateNow.map((s) => s.id) }, state: { caseFile, signers: after } };
    },
    // A session left idle holding the case file's lock (a stalled process) ends and releases it.
    { idleTimeoutMs: CASEFILE_IDLE_LIMIT_MS, firstRead: firstRead(lockCaseFileRow, { id: caseFileId, customerId: undefined }) },
  );
}

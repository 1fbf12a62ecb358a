import { firstRead, lockCaseFileRow, run, runAndCommit, sqlPool, withSqlTransaction, type CaseFile, type Db } from "@esign/db";
import { CASEFILE_STATUS, logRow } from "@esign/schema";
import { CASEFILE_IDLE_LIMIT_MS, planActivation } from "./activate-round";
import { roundSignersSql } from "./advance-casefile.sql";
import type { TimerSnapshot } from "./schedule-timers";
import { sendCaseFileSql } from "./send-casefile.sql";

/** Whether it was sent now, and the case file's state as the transaction left it (undefined: no such case file). */
export interface Sent {
  sent: boolean;
  /** What its timers depend on, as committed: the caller schedules them without reading it back. */
  state: TimerSnapshot | undefined;
}

/**
 * Sends a case file: new -> pending with sentAt, and the lowest signOrder round becomes active
 * (`sign.signer.requestActivated` per signer, in the same transaction). Idempotent: a case file that is
 * no longer new is left alone, so a duplicate send job changes nothing. Delayed jobs (expiry, later
 * activations) are the caller's to schedule after commit, from the state returned.
 *
 * Sent at its sendAt by the platform (the user's part was the create that scheduled it), its log entry
 * says so, unless the user's send or activate of a draft wrote the entry already (`logged`), with who
 * and from where.
 *
 * One transaction of three round trips in plain SQL: BEGIN with the case file's lock and read, the
 * signers, then the send with the COMMIT (send-casefile.sql.ts; the COMMIT alone when it is not to be
 * sent). In Prisma's interactive transaction it took eight: BEGIN, the lock, the case file's update,
 * its log entry, the signers, their update, the events, COMMIT.
 */
export async function sendCaseFile(db: Db, caseFileId: number, opts: { logged?: boolean; now?: Date } = {}): Promise<Sent> {
  const now = opts.now ?? new Date();
  return withSqlTransaction(
    sqlPool(db),
    async (client, [caseFile]): Promise<Sent> => {
      if (!caseFile) return { sent: false, state: undefined };
      const send = mayBeSent(caseFile, now);
      // Timers read signers only while the case file is pending (loadTimerSnapshot).
      if (!send && caseFile.status !== CASEFILE_STATUS.pending) return { sent: false, state: { caseFile, signers: [] } };
      const signers = await run(client, roundSignersSql, { caseFileId });
      if (!send) return { sent: false, state: { caseFile, signers } };
      const status = CASEFILE_STATUS.pending;
      const { activateNow, written, after } = planActivation(caseFile, status, signers, now);
      const entry = caseFile.sendSigningRequests ? "sent" : "activated";
      const own = opts.logged === true ? [] : [logRow({ customerId: caseFile.customerId, caseFileId, event: entry, detail: { trigger: "sendAt" } })];
      await runAndCommit(client, sendCaseFileSql, {
        caseFileId,
        sentAt: now,
        signerIds: activateNow.map((s) => s.id),
        events: written.events,
        logs: [...own, ...written.logs],
      });
      return { sent: true, state: { caseFile: { ...caseFile, status }, signers: after } };
    },
    // A session left idle holding the case file's lock (a stalled process) ends and releases it.
    { idleTimeoutMs: CASEFILE_IDLE_LIMIT_MS, firstRead: firstRead(lockCaseFileRow, { id: caseFileId, customerId: undefined }) },
  );
}

/**
 * Whether a case file in this state may be sent now: only a new one, and not after its expireAt. A send
 * that comes after expireAt (workers down, sendAt close to expireAt) must not mail signers a request
 * that is already void: the expire job finds the case file new-but-activated and expires it.
 */
export function mayBeSent(caseFile: Pick<CaseFile, "status" | "expireAt">, now: Date): boolean {
  return caseFile.status === CASEFILE_STATUS.new && !(caseFile.expireAt && caseFile.expireAt.getTime() <= now.getTime());
}

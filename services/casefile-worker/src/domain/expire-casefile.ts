import { eventRows, firstRead, lockCaseFileRow, runAndCommit, sqlPool, withSqlTransaction, type Db } from "@esign/db";
import { CASEFILE_STATUS, caseFileEvent } from "@esign/schema";
import { CASEFILE_IDLE_LIMIT_MS } from "./activate-round";
import { expireCaseFileSql } from "./expire.sql";

export type ExpireOutcome = { kind: "expired" } | { kind: "unchanged" } | { kind: "early"; at: Date };

/**
 * Expires a case file that is still out for signing (1) or activated but waiting for its sendAt
 * (0 with activate): status 7, expiredAt, `sign.casefile.expired`. Anything else (signed, completed,
 * rejected, a case file left unsent on purpose) is not touched. A job that fires before expireAt
 * (the date moved, clocks differ) gets `early` back and waits again instead of expiring too soon.
 *
 * Two round trips in plain SQL (BEGIN with the case file's lock and read, the change with the
 * COMMIT) where Prisma's interactive transaction took five.
 */
export async function expireCaseFile(db: Db, caseFileId: number, now: Date = new Date()): Promise<ExpireOutcome> {
  return withSqlTransaction(
    sqlPool(db),
    async (client, [caseFile]): Promise<ExpireOutcome> => {
      if (!caseFile?.expireAt) return { kind: "unchanged" };
      const expirable = caseFile.status === CASEFILE_STATUS.pending || (caseFile.status === CASEFILE_STATUS.new && caseFile.activate);
      if (!expirable) return { kind: "unchanged" };
      if (caseFile.expireAt.getTime() > now.getTime()) return { kind: "early", at: caseFile.expireAt };
      const written = eventRows([caseFileEvent(caseFile, CASEFILE_STATUS.expired, "sign.casefile.expired")]);
      await runAndCommit(client, expireCaseFileSql, { caseFileId, expiredAt: now, written });
      return { kind: "expired" };
    },
    // A session left idle holding the case file's lock (a stalled process) ends and releases it.
    { idleTimeoutMs: CASEFILE_IDLE_LIMIT_MS, firstRead: firstRead(lockCaseFileRow, { id: caseFileId, customerId: undefined }) },
  );
}

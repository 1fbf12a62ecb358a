import { firstRead, runAndCommit, runOne, sqlPool, withSqlTransaction, type Db } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { CASEFILE_IDLE_LIMIT_MS } from "./activate-round";
import { lockCaseFileOfSignerSql } from "./lock-casefile.sql";
import { markSignerExpiredSql, signerForExpirySql } from "./expire.sql";

export type ExpireSignerOutcome = { kind: "expired"; caseFileId: number } | { kind: "unchanged" } | { kind: "early"; at: Date };

/**
 * Ends the access of a signer who has not signed by its expireAt: expiredAt is set and the status
 * stays (the contract has no signer status for it; the gateway answers "expired" from expireAt /
 * expiredAt). The spec has no event type for it, so none is written. The signer keeps blocking its
 * round: it has not signed.
 *
 * Three round trips in plain SQL (BEGIN with the lock of the signer's case file, the signer read
 * under it, the mark with the COMMIT) where Prisma's interactive transaction took six.
 */
export async function expireSigner(db: Db, signerId: number, now: Date = new Date()): Promise<ExpireSignerOutcome> {
  return withSqlTransaction(
    sqlPool(db),
    async (client, [caseFile]): Promise<ExpireSignerOutcome> => {
      if (!caseFile || caseFile.status !== CASEFILE_STATUS.pending) return { kind: "unchanged" };
      // Read under the lock: the signer may have signed while this job waited for it.
      const signer = await runOne(client, signerForExpirySql, { signerId });
      if (!signer?.expireAt) return { kind: "unchanged" };
      // Already marked by an earlier run whose follow-up advance may not have been enqueued: report it again.
      if (signer.expiredAt) return { kind: "expired", caseFileId: caseFile.id };
      if (signer.status !== SIGNER_STATUS.new && signer.status !== SIGNER_STATUS.pending) return { kind: "unchanged" };
      if (signer.expireAt.getTime() > now.getTime()) return { kind: "early", at: signer.expireAt };
      await runAndCommit(client, markSignerExpiredSql, { signerId, expiredAt: now });
      return { kind: "expired", caseFileId: caseFile.id };
    },
    // A session left idle holding the case file's lock (a stalled process) ends and releases it.
    { idleTimeoutMs: CASEFILE_IDLE_LIMIT_MS, firstRead: firstRead(lockCaseFileOfSignerSql, { signerId }) },
  );
}

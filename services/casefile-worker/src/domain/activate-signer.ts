import { firstRead, run, runAndCommit, sqlPool, withSqlTransaction, type Db } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { CASEFILE_IDLE_LIMIT_MS, planActivation } from "./activate-round";
import { activateSignersSql, roundSignersSql } from "./advance-casefile.sql";
import { lockCaseFileOfSignerSql } from "./lock-casefile.sql";

export type ActivateSignerOutcome = { kind: "activated"; signerIds: number[] } | { kind: "unchanged" } | { kind: "early"; at: Date };

/**
 * A signer's activeAt has come. If its round is the current one it is activated like any other signer
 * of the round; if its round is still ahead nothing happens now - advance activates it when the round
 * is reached, since its activeAt has passed by then.
 *
 * One transaction of three round trips in plain SQL: BEGIN with the lock of the signer's case file,
 * the signers, then the activation with the COMMIT (advance-casefile.sql.ts' activateSignersSql; the
 * COMMIT alone when nobody moves). In Prisma's interactive transaction it took eight: BEGIN, the
 * signer's case file, the lock, the signer, the signers, their update, the events, COMMIT.
 */
export async function activateSigner(db: Db, signerId: number, now: Date = new Date()): Promise<ActivateSignerOutcome> {
  return withSqlTransaction(
    sqlPool(db),
    async (client, [caseFile]): Promise<ActivateSignerOutcome> => {
      if (!caseFile || caseFile.status !== CASEFILE_STATUS.pending) return { kind: "unchanged" };
      const signers = await run(client, roundSignersSql, { caseFileId: caseFile.id });
      const signer = signers.find((s) => s.id === signerId);
      if (!signer || signer.status !== SIGNER_STATUS.new) return { kind: "unchanged" };
      if (signer.activeAt && signer.activeAt.getTime() > now.getTime()) return { kind: "early", at: signer.activeAt };
      const { activateNow, written } = planActivation(caseFile, caseFile.status, signers, now);
      if (activateNow.length === 0) return { kind: "unchanged" };
      await runAndCommit(client, activateSignersSql, { signerIds: activateNow.map((s) => s.id), activatedAt: now, written });
      return { kind: "activated", signerIds: activateNow.map((s) => s.id) };
    },
    // A session left idle holding the case file's lock (a stalled process) ends and releases it.
    { idleTimeoutMs: CASEFILE_IDLE_LIMIT_MS, firstRead: firstRead(lockCaseFileOfSignerSql, { signerId }) },
  );
}

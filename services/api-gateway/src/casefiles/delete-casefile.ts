import { lockCaseFileRow, recordLog, run, runOne, type Db } from "@esign/db";
import { CASEFILE_STATUS, type LogAudit } from "@esign/schema";
import { markCaseFileDeletedSql } from "./delete-casefile.sql";

/**
 * Penneo's "Delete Casefile": the case file goes to status 3 (deleted) at once, whatever its state:
 * the recycle bin, from which PATCH .../restore takes it back to the status it had, until the
 * casefile-worker purges it after the customer's recycleBinDays (Penneo's help centre: "Deleting and
 * restoring case files"). Its row, documents and files stay for the owner's reads (status 3 is what they then show); what
 * changes is everything that would still happen: signing links answer "withdrawn", and every
 * scheduled step of the worker (send at sendAt, rounds, reminders, expiry, finalization) finds the
 * status changed and does nothing, since each of them locks the case file and checks its status.
 * Locking the row first (the worker's order) makes a racing signature or finalization either
 * commit before the delete or see it. Returns false when there is no such case file of this customer.
 * A case file already deleted stays as it is (a repeated DELETE answers the same).
 */
export async function deleteCaseFile(db: Db, customerId: number, id: number, audit: LogAudit): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const row = await runOne(tx, lockCaseFileRow, { id, customerId });
    if (!row) return false;
    if (row.status !== CASEFILE_STATUS.deleted) {
      await run(tx, markCaseFileDeletedSql, { caseFileId: id, deletedAt: new Date(), deletedFromStatus: row.status });
      await recordLog(tx, [{ customerId, caseFileId: id, event: "deleted", audit, detail: { fromStatus: row.status } }]);
    }
    return true;
  });
}

import { defineStatement, qb } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";

/**
 * Case file -> deleted (3), the recycle bin: with the time and the status it leaves (restore
 * returns it there; Penneo's "Delete Casefile", see deleteCaseFile).
 *
 * Locks: nothing more: the caller holds the case file row's lock (lockCaseFileRow), taken first so
 * that a racing signature or finalization either commits before the delete or sees it.
 */
export const markCaseFileDeletedSql = defineStatement(
  "mark-case-file-deleted",
  { caseFileId: 1, deletedAt: new Date(0), deletedFromStatus: 1 },
  ({ caseFileId, deletedAt, deletedFromStatus }) =>
    qb
      .updateTable("CaseFile")
      .set((eb) => ({ status: CASEFILE_STATUS.deleted, deletedAt, deletedFromStatus, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", caseFileId),
  { reuse: "shape" },
);

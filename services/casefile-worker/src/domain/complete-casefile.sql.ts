import { arrayOf, defineStatement, eventRowsCtes, notifyOutboxIfAny, qb, SAMPLE_EVENT_ROWS, withCtes } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";

/*
 * The statements of the finalization's last step (complete-casefile.ts), after BEGIN with the case
 * file's lock (lockCaseFileRow): what it decides on is read under that lock, and the write is the
 * transaction's last statement, which carries its COMMIT (runAndCommit).
 */

/**
 * What completing a signed case file needs: how many signable documents still have no signed copy
 * (the sealing wrote them before this transaction), and the ids of its signers who signed, in signer
 * order (each gets `sign.signer.finalized`, the events' seq following that order).
 *
 * Locks: nothing more (the caller holds the case file's lock, which every change of a signer takes).
 */
export const completionStateSql = defineStatement(
  "finalize-completion-state",
  { caseFileId: 1 },
  ({ caseFileId }) =>
    qb.selectNoFrom((eb) => [
      eb
        .selectFrom("Document")
        .select((d) => d.fn.countAll<string>().as("n"))
        .where("caseFileId", "=", caseFileId)
        .where("signable", "=", true)
        .where("signedSha256", "is", null)
        .as("unsigned"),
      arrayOf<number>(eb.selectFrom("Signer").select("id").where("caseFileId", "=", caseFileId).where("status", "=", SIGNER_STATUS.signed).orderBy("id")).as(
        "signedIds",
      ),
    ]),
  { reuse: "shape" },
);

/**
 * Case file signed (4) -> completed (5) with completedAt, and its events (`sign.casefile.completed`,
 * then `sign.signer.finalized` per signer who signed) with their log entries and the NOTIFY, written
 * only when the UPDATE moved it.
 *
 * Locks: nothing more (the caller holds the case file's lock).
 */
export const completeCaseFileSql = defineStatement(
  "finalize-complete",
  { caseFileId: 1, completedAt: new Date(0), written: SAMPLE_EVENT_ROWS },
  ({ caseFileId, completedAt, written }) =>
    withCtes([
      [
        "completed",
        qb
          .updateTable("CaseFile")
          .set((eb) => ({ status: CASEFILE_STATUS.completed, completedAt, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", caseFileId)
          .where("status", "=", CASEFILE_STATUS.signed)
          .returning("id"),
      ],
      ...eventRowsCtes(written, "completed"),
    ]).selectNoFrom(notifyOutboxIfAny("events").as("notified")),
  { reuse: "shape" },
);

/**
 * Case file signed (4) -> failed (6) with failedAt and the reason, and `sign.casefile.failed` with
 * its log entry and the NOTIFY, written only when the UPDATE moved it.
 *
 * Locks: nothing more (the caller holds the case file's lock).
 */
export const failCaseFileSql = defineStatement(
  "finalize-fail",
  { caseFileId: 1, failedAt: new Date(0), failureReason: "reason", written: SAMPLE_EVENT_ROWS },
  ({ caseFileId, failedAt, failureReason, written }) =>
    withCtes([
      [
        "failed",
        qb
          .updateTable("CaseFile")
          .set((eb) => ({ status: CASEFILE_STATUS.failed, failedAt, failureReason, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", caseFileId)
          .where("status", "=", CASEFILE_STATUS.signed)
          .returning("id"),
      ],
      ...eventRowsCtes(written, "failed"),
    ]).selectNoFrom(notifyOutboxIfAny("events").as("notified")),
  { reuse: "shape" },
);

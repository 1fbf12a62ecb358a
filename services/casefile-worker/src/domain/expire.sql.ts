import { defineStatement, eventRowsCtes, notifyOutboxIfAny, qb, SAMPLE_EVENT_ROWS, withCtes } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";

/*
 * The statements of the expiry jobs (expire-casefile.ts, expire-signer.ts), after BEGIN with the case
 * file's lock (lockCaseFileRow, or lockCaseFileOfSignerSql for a signer's): what they decide on is
 * read under that lock, and the write is the transaction's last statement, which carries its COMMIT
 * (runAndCommit).
 */

/**
 * Case file -> expired (7) with expiredAt, and `sign.casefile.expired` with its log entry and the
 * NOTIFY, written only when the UPDATE moved it (the caller checked, under the lock, that it is out
 * for signing or activated and waiting for its sendAt).
 *
 * Locks: nothing more (the caller holds the case file's lock).
 */
export const expireCaseFileSql = defineStatement(
  "expire-case-file",
  { caseFileId: 1, expiredAt: new Date(0), written: SAMPLE_EVENT_ROWS },
  ({ caseFileId, expiredAt, written }) =>
    withCtes([
      [
        "expired",
        qb
          .updateTable("CaseFile")
          .set((eb) => ({ status: CASEFILE_STATUS.expired, expiredAt, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", caseFileId)
          .where("status", "in", [CASEFILE_STATUS.new, CASEFILE_STATUS.pending])
          .returning("id"),
      ],
      ...eventRowsCtes(written, "expired"),
    ]).selectNoFrom(notifyOutboxIfAny("events").as("notified")),
  { reuse: "shape" },
);

/**
 * The signer as its expiry decides on it, read under its case file's lock (it may have signed while
 * the job waited for that lock).
 *
 * Locks: nothing more (the caller holds the case file's lock, which every change of a signer takes).
 */
export const signerForExpirySql = defineStatement(
  "expire-signer-state",
  { signerId: 1 },
  ({ signerId }) => qb.selectFrom("Signer").select(["id", "status", "expireAt", "expiredAt"]).where("id", "=", signerId),
  { reuse: "shape" },
);

/**
 * The signer's access ended: expiredAt (its status stays; the spec has no event for it).
 *
 * Locks: the Signer row, by the UPDATE, until the COMMIT that goes with it.
 */
export const markSignerExpiredSql = defineStatement(
  "expire-signer-mark",
  { signerId: 1, expiredAt: new Date(0) },
  ({ signerId, expiredAt }) =>
    qb
      .updateTable("Signer")
      .set((eb) => ({ expiredAt, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", signerId)
      .where("expiredAt", "is", null),
  { reuse: "shape" },
);

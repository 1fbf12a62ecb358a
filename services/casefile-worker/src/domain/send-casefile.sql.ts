import { anyOf, anyRowIn, defineStatement, logInsert, notifyOutboxIfAny, qb, SAMPLE_EVENT_ROWS, serializedEventInsert, withCtes } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";

/*
 * The send job's write (send-casefile.ts), after BEGIN with the case file's lock (lockCaseFileRow)
 * and the signers read under it (roundSignersSql): the transaction's last statement, which carries
 * its COMMIT (runAndCommit).
 */

/**
 * Sends a case file: new (0) -> pending (1) with sentAt; the current round's signers whose access has
 * started new -> pending with activatedAt; their `sign.signer.requestActivated` events, the log
 * entries (the send's own entry, when the caller has one, before the events' entries: the log reads
 * in the order things happened: one insert keeps that order, two CTEs would not) and the NOTIFY.
 * Everything but the case file's UPDATE is written only when that UPDATE moved it: under the case
 * file's lock the caller read it as new and its signers as they are, so the signers all move with it.
 *
 * Locks: the CaseFile row is already locked (lockCaseFileRow); the moved Signer rows, by the UPDATE,
 * until the COMMIT that goes with it.
 */
export const sendCaseFileSql = defineStatement(
  "send-case-file",
  {
    caseFileId: 1,
    sentAt: new Date(0),
    signerIds: [1] as number[],
    events: SAMPLE_EVENT_ROWS.events,
    logs: SAMPLE_EVENT_ROWS.logs,
  },
  ({ caseFileId, sentAt, signerIds, events, logs }) =>
    withCtes([
      [
        "sent",
        qb
          .updateTable("CaseFile")
          .set((eb) => ({ status: CASEFILE_STATUS.pending, sentAt, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", caseFileId)
          .where("status", "=", CASEFILE_STATUS.new)
          .returning("id"),
      ],
      [
        "activated",
        qb
          .updateTable("Signer")
          .set((eb) => ({ status: SIGNER_STATUS.pending, activatedAt: sentAt, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", anyOf(signerIds, "int"))
          .where("status", "=", SIGNER_STATUS.new)
          .where(anyRowIn("sent"))
          .returning("id"),
      ],
      ["events", serializedEventInsert(events, "sent")],
      ["logged", logInsert(logs, "sent")],
    ]).selectNoFrom(notifyOutboxIfAny("events").as("notified")),
  { reuse: "shape" },
);

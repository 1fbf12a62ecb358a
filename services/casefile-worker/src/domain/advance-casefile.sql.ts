import { anyOf, defineStatement, eventRowsCtes, notifyOutboxIfAny, qb, SAMPLE_EVENT_ROWS, withCtes } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";

/*
 * The statements of the advance job (advance-casefile.ts), after BEGIN with the case file's lock
 * (lockCaseFileRow): the signers are read under that lock, which every change of a signer takes, so
 * what they say holds until the COMMIT; the write is the transaction's last statement and carries it.
 */

/**
 * The case file's signers as the round planning reads them, in signer order (their ids: the order
 * they were created in, which the activation events' seq follows).
 *
 * Locks: nothing more (the caller holds the case file's lock).
 */
export const roundSignersSql = defineStatement(
  "advance-round-signers",
  { caseFileId: 1 },
  ({ caseFileId }) =>
    qb.selectFrom("Signer").select(["id", "signOrder", "status", "activeAt", "expireAt", "expiredAt"]).where("caseFileId", "=", caseFileId).orderBy("id"),
  { reuse: "shape" },
);

/**
 * Case file -> signed (4): everyone taking part has signed. No event: sign.casefile.completed follows
 * once the signed PDFs exist.
 *
 * Locks: nothing more (the caller holds the case file's lock).
 */
export const markCaseFileSignedSql = defineStatement(
  "advance-mark-signed",
  { caseFileId: 1, signedAt: new Date(0) },
  ({ caseFileId, signedAt }) =>
    qb
      .updateTable("CaseFile")
      .set((eb) => ({ status: CASEFILE_STATUS.signed, signedAt, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", caseFileId)
      .where("status", "=", CASEFILE_STATUS.pending),
  { reuse: "shape" },
);

/**
 * The current round's signers whose access has started: new (0) -> pending (1) with activatedAt, and
 * their `sign.signer.requestActivated` events (the relay turns each into a signing request), their log
 * entries and the NOTIFY. The events are written only when the UPDATE moved a signer: under the case
 * file's lock the caller read these signers as new, so it moves all of them or (a signer changed
 * without that lock, which no writer does) none.
 *
 * Locks: the moved Signer rows, by the UPDATE, until the COMMIT that goes with it.
 */
export const activateSignersSql = defineStatement(
  "advance-activate-signers",
  { signerIds: [1] as number[], activatedAt: new Date(0), written: SAMPLE_EVENT_ROWS },
  ({ signerIds, activatedAt, written }) =>
    withCtes([
      [
        "activated",
        qb
          .updateTable("Signer")
          .set((eb) => ({ status: SIGNER_STATUS.pending, activatedAt, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", anyOf(signerIds, "int"))
          .where("status", "=", SIGNER_STATUS.new)
          .returning("id"),
      ],
      ...eventRowsCtes(written, "activated"),
    ]).selectNoFrom(notifyOutboxIfAny("events").as("notified")),
  { reuse: "shape" },
);

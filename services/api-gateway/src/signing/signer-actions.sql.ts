import { defineStatement, eventRowsCtes, jsonText, notifyOutboxIfAny, qb, SAMPLE_EVENT_ROWS, secondsBefore, withCtes } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";

/*
 * The statements of the signer's own actions (signer-actions.ts). Each action's transaction locks
 * the case file row first and the signer row second (lockCaseFileRow, then lockSignerForAction),
 * the order every writer of a case file keeps, so none deadlocks another; the writes below run under
 * those locks and re-check nothing themselves.
 */

const ID = 1;

/**
 * Locks the signer and reads all of it, as locked: the state the action is checked against again
 * (blockerFor, the caller's recheck of methods and documents).
 *
 * Locks: the Signer row (FOR UPDATE) until the transaction ends, after the case file's: a second
 * action of the same signer waits here and then sees the first one's result.
 */
export const lockSignerForActionSql = defineStatement(
  "lock-signer-for-action",
  { signerId: ID },
  ({ signerId }) => qb.selectFrom("Signer").selectAll().where("id", "=", signerId).forUpdate(),
  { reuse: "shape" },
);

/**
 * Events with their log entries and NOTIFY, as the transaction's last statement (runAndCommit sends
 * its COMMIT along): emitEvents' statement, for a transaction that has no change of its own to write
 * with them.
 *
 * Locks: nothing (it only inserts; the transaction's earlier statements hold what it locked).
 */
export const writeActionEventsSql = defineStatement(
  "write-action-events",
  { written: SAMPLE_EVENT_ROWS },
  ({ written }) => withCtes(eventRowsCtes(written)).selectNoFrom(notifyOutboxIfAny("events").as("notified")),
  { reuse: "shape" },
);

/**
 * Signer -> signed (4): the time, the method and value, the identity a provider vouched for, the
 * request's evidence for the audit trail; and its events with their NOTIFY, in one statement (the
 * transaction's last: runAndCommit sends its COMMIT along).
 *
 * Locks: nothing more (the signer row is already locked by lockSignerForActionSql).
 */
export const signSignerSql = defineStatement(
  "sign-signer",
  {
    signerId: ID,
    signedAt: new Date(0),
    signatureMethod: "text",
    signatureValue: "Name",
    identityProvider: null as string | null,
    identityMethod: null as string | null,
    identitySubject: null as string | null,
    identityNationalIdEnc: null as string | null,
    identityVerifiedAt: null as Date | null,
    actionIp: null as string | null,
    actionUserAgent: null as string | null,
    written: SAMPLE_EVENT_ROWS,
  },
  ({ signerId, written, ...signed }) =>
    withCtes([
      [
        "signed",
        qb
          .updateTable("Signer")
          .set((eb) => ({ ...signed, status: SIGNER_STATUS.signed, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", signerId)
          .returning("id"),
      ],
      ...eventRowsCtes(written),
    ]).selectNoFrom(notifyOutboxIfAny("events").as("notified")),
  { reuse: "shape" },
);

/**
 * Signer -> rejected (2) with the reason and the request's evidence, the case file -> rejected (2):
 * one signer's no ends it; and both events with their NOTIFY, in one statement (the transaction's
 * last: runAndCommit sends its COMMIT along).
 *
 * Locks: nothing more (the case file row and the signer row are already locked, by lockCaseFileRow
 * and lockSignerForActionSql).
 */
export const rejectSignerSql = defineStatement(
  "reject-signer",
  {
    signerId: ID,
    caseFileId: ID,
    rejectedAt: new Date(0),
    rejectReason: null as string | null,
    actionIp: null as string | null,
    actionUserAgent: null as string | null,
    written: SAMPLE_EVENT_ROWS,
  },
  ({ signerId, caseFileId, rejectedAt, written, ...rejected }) =>
    withCtes([
      [
        "signer_rejected",
        qb
          .updateTable("Signer")
          .set((eb) => ({ ...rejected, rejectedAt, status: SIGNER_STATUS.rejected, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", signerId)
          .returning("id"),
      ],
      [
        "case_file_rejected",
        qb
          .updateTable("CaseFile")
          .set((eb) => ({ status: CASEFILE_STATUS.rejected, rejectedAt, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", caseFileId)
          .returning("id"),
      ],
      ...eventRowsCtes(written),
    ]).selectNoFrom(notifyOutboxIfAny("events").as("notified")),
  { reuse: "shape" },
);

/**
 * Claims the signer's next counted opening: openedAt becomes `now` when the signer can act (pending
 * or undeliverable) and its last counted opening is at or before `cutoff` (or there is none).
 * Answers the signer's id when it claimed, no row when the opening does not count.
 *
 * Locks: the Signer row, by the UPDATE, until the transaction ends (only that row, never the case
 * file: page loads must not queue behind a case file's writers). Two replicas loading the page at
 * once serialize on it, and the second one's condition no longer holds: exactly one counts.
 */
export const claimOpenedSql = defineStatement(
  "claim-signer-opened",
  { signerId: ID, now: new Date(0), cutoff: new Date(0) },
  ({ signerId, now, cutoff }) =>
    qb
      .updateTable("Signer")
      .set((eb) => ({ openedAt: now, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", signerId)
      .where("status", "in", [SIGNER_STATUS.pending, SIGNER_STATUS.undeliverable])
      .where((eb) => eb.or([eb("openedAt", "is", null), eb("openedAt", "<=", cutoff)]))
      .returning("id"),
  { reuse: "shape" },
);

/**
 * What the tracking pixel decides on, after it locked the signer (lockSignerRow): the case file its
 * event names (id, status for the payload, customer) and whether the signer's `requestOpened` event
 * was written within the last `withinSeconds` (the database's clock, so replicas agree). One
 * statement where it took two.
 *
 * Locks: nothing: the caller holds the signer's row lock, which orders the pixel's requests. This
 * statement runs after that lock was granted, so its snapshot holds the event of a request that
 * held the lock before it (in the locking statement itself it would not: its snapshot is older).
 */
export const pixelStateSql = defineStatement(
  "tracking-pixel-state",
  { caseFileId: ID, signerId: ID, withinSeconds: 60 },
  (a) =>
    qb
      .selectFrom("CaseFile as cf")
      .select(["cf.id", "cf.status", "cf.customerId"])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom("Event")
              .select("Event.id")
              .whereRef("Event.customerId", "=", "cf.customerId")
              .where("Event.eventType", "=", "sign.signer.requestOpened")
              .where((e) => e("Event.occurredAt", ">", secondsBefore(e.fn<Date>("now"), a.withinSeconds)))
              // The id as text in SQL, not in the build: a build passes values on untouched (reuse: "shape").
              .where((e) => e(jsonText(e.ref("Event.payload"), "id"), "=", e.cast<string>(e.val(a.signerId), "text"))),
          )
          .as("recent"),
      )
      .where("cf.id", "=", a.caseFileId),
  { reuse: "shape" },
);

/**
 * The signer's `requestOpened`: its first opening of a signing request stays its requestOpenedAt
 * (later ones leave it as it is), and the event with its log entry and NOTIFY, as the transaction's
 * last statement (runAndCommit sends its COMMIT along).
 *
 * Locks: nothing more (the caller holds the signer's row lock).
 */
export const markRequestOpenedSql = defineStatement(
  "mark-request-opened",
  { signerId: ID, written: SAMPLE_EVENT_ROWS },
  ({ signerId, written }) =>
    withCtes([
      [
        "first_opening",
        qb
          .updateTable("Signer")
          .set((eb) => ({ requestOpenedAt: eb.fn<Date>("now") }))
          .where("id", "=", signerId)
          .where("requestOpenedAt", "is", null)
          .returning("id"),
      ],
      ...eventRowsCtes(written),
    ]).selectNoFrom(notifyOutboxIfAny("events").as("notified")),
  { reuse: "shape" },
);

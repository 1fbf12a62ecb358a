import { defineStatement, logInsert, one, qb, withCtes, type DB, type Insertable } from "@esign/db";
import { type LogRow, SIGNER_STATUS } from "@esign/schema";
import { notificationValues, SAMPLE_NOTIFICATION } from "./notification-records.sql";

/*
 * The statements of signOnMeeting's mail to the creator (meeting-links.ts): who the signer's case
 * file and creator are, which signers of the same activation still need their link sent, and the
 * outcome (a Notification row per signer whose link went, and their log entries) in one write.
 */

/** The Notification kind of the mail; one row per signer whose link it carried. */
export const MEETING_KIND = "meeting_links";

/**
 * The signer with its case file, the case file's creator and the customer's name.
 *
 * Locks: nothing: read before the case file's advisory lock is taken (it names the lock); what
 * decides is read again after it (meetingRoundSql).
 */
export const meetingSignerSql = defineStatement(
  "meeting-signer",
  { signerId: 1 },
  ({ signerId }) =>
    qb
      .selectFrom("Signer as s")
      .innerJoin("CaseFile as cf", "cf.id", "s.caseFileId")
      .innerJoin("Customer as c", "c.id", "cf.customerId")
      .leftJoin("User as u", (j) => j.onRef("u.id", "=", "cf.userId").onRef("u.customerId", "=", "cf.customerId"))
      .select([
        "s.id",
        "s.status",
        "s.activatedAt",
        "cf.id as caseFileId",
        "cf.customerId",
        "cf.status as caseFileStatus",
        "cf.title",
        "cf.language",
        "cf.senderName",
        "c.name as customerName",
        "u.email as creatorEmail",
        "u.name as creatorName",
      ])
      .where("s.id", "=", signerId),
  { reuse: "shape" },
);

/**
 * The pending signers of a case file activated at one moment (one round's activation), with their
 * links and whether their link already went to the creator since then.
 *
 * Locks: nothing: the caller holds the case file's meeting advisory lock, so two signers' jobs of
 * one activation run one after the other and the second sees the first's Notification rows.
 */
export const meetingRoundSql = defineStatement(
  "meeting-round",
  { caseFileId: 1, activatedAt: new Date(0) },
  ({ caseFileId, activatedAt }) =>
    qb
      .selectFrom("Signer as s")
      .innerJoin("SigningLink as l", "l.signerId", "s.id")
      .select((eb) => [
        "s.id",
        "s.name",
        "s.role",
        "l.tokenEnc",
        eb
          .exists(
            eb
              .selectFrom("Notification as n")
              .select("n.id")
              .whereRef("n.signerId", "=", "s.id")
              .where("n.kind", "=", MEETING_KIND)
              .whereRef("n.createdAt", ">=", "s.activatedAt"),
          )
          .as("covered"),
      ])
      .where("s.caseFileId", "=", caseFileId)
      .where("s.status", "=", SIGNER_STATUS.pending)
      .where("s.deletedAt", "is", null)
      .where("s.activatedAt", "=", activatedAt)
      .orderBy("s.id"),
  { reuse: "shape" },
);

export interface MeetingOutcomeRows {
  notifications: Insertable<DB["Notification"]>[];
  log: LogRow[];
}

const SAMPLE_LOG: LogRow = {
  customerId: 1,
  caseFileId: 1,
  signerId: 1,
  code: 15,
  event: "linkSentToCreator",
  actor: "system",
  userId: null,
  ip: null,
  userAgent: null,
  detailJson: null,
};

/**
 * The mail's outcome: a Notification row per signer whose link it carried (sent or refused), and
 * their log entries when it went.
 *
 * Locks: the new rows only (the caller holds the case file's meeting advisory lock).
 */
export const writeMeetingOutcomeSql = defineStatement(
  "write-meeting-outcome",
  { notifications: [notificationValues(SAMPLE_NOTIFICATION)], log: [SAMPLE_LOG] } as MeetingOutcomeRows,
  (r: MeetingOutcomeRows) =>
    withCtes([["notifications", qb.insertInto("Notification").values(r.notifications)], r.log.length > 0 && ["log", logInsert(r.log)]]).selectNoFrom(
      one.as("done"),
    ),
  { reuse: "shape" },
);

/**
 * Whether a message with this dedupeKey exists (a resend's mail to the creator, already sent).
 *
 * Locks: nothing (the caller holds the case file's meeting advisory lock).
 */
export const notificationExistsSql = defineStatement(
  "notification-exists",
  { dedupeKey: "k" },
  ({ dedupeKey }) => qb.selectFrom("Notification").select("id").where("dedupeKey", "=", dedupeKey),
  { reuse: "shape" },
);

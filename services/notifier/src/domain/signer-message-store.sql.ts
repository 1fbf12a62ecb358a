import {
  defineStatement,
  jsonArrayFrom,
  notifyOutboxIfAnyUnrelayed,
  qb,
  serializedEventInsert,
  serializedLogInsert,
  valueFrom,
  withCtes,
  type DB,
  type Insertable,
  type SerializedEvent,
} from "@esign/db";
import { relayedUnlessSubscribed } from "@esign/outbox-relay";
import { type LogRow, SIGNER_STATUS } from "@esign/schema";
import { notificationValues, SAMPLE_NOTIFICATION } from "./notification-records.sql";

/**
 * The signer with everything its message needs (case file, customer name, documents as JSON), and
 * whether a message with this dedupeKey exists already.
 *
 * Locks: nothing: the caller holds the dedupeKey's advisory lock (withMessageLock: a copy of the job waits for it,
 * and this statement's snapshot then sees the copy's Notification row). No row lock: a signer
 * signing while their reminder goes out must not wait for an SMTP conversation.
 */
export const loadSignerForMessageSql = defineStatement(
  "load-signer-for-message",
  { signerId: 1, dedupeKey: "k" },
  ({ signerId, dedupeKey }) =>
    qb
      .selectFrom("Signer as s")
      .innerJoin("CaseFile as cf", "cf.id", "s.caseFileId")
      .innerJoin("Customer as c", "c.id", "cf.customerId")
      .leftJoin("SigningLink as l", "l.signerId", "s.id")
      .select((eb) => [
        "s.id",
        "s.name",
        "s.role",
        "s.email",
        "s.channel",
        "s.cprEnc",
        "s.cvr",
        "s.language",
        "s.notification",
        "s.status",
        "s.deletedAt",
        "s.expiredAt",
        "s.expireAt",
        "s.remindersSent",
        "l.tokenEnc",
        "cf.id as cfId",
        "cf.customerId as cfCustomerId",
        "cf.status as cfStatus",
        "cf.expiredAt as cfExpiredAt",
        "cf.expireAt as cfExpireAt",
        "cf.title as cfTitle",
        "cf.senderName as cfSenderName",
        "cf.sensitiveData as cfSensitiveData",
        "cf.visibilityMode as cfVisibilityMode",
        "cf.language as cfLanguage",
        "cf.signOnMeeting as cfSignOnMeeting",
        "cf.sendSigningRequests as cfSendSigningRequests",
        "c.name as customerName",
        jsonArrayFrom(
          eb
            .selectFrom("Document as d")
            .select(["d.id", "d.title", "d.name", "d.signable", "d.roles", "d.documentOrder", "d.fileSha256", "d.signedSha256"])
            .whereRef("d.caseFileId", "=", "cf.id")
            .orderBy("d.id"),
        ).as("documents"),
        eb.exists(eb.selectFrom("Notification as n").select("n.id").where("n.dedupeKey", "=", dedupeKey)).as("alreadySent"),
      ])
      .where("s.id", "=", signerId),
  { reuse: "shape" },
);

/**
 * When the signer's last request or reminder went out.
 *
 * Locks: nothing (the dedupeKey's advisory lock orders copies of the job).
 */
export const lastSentAtSql = defineStatement(
  "signer-last-message-sent-at",
  { signerId: 1 },
  ({ signerId }) =>
    qb
      .selectFrom("Notification")
      .select("createdAt")
      .where("signerId", "=", signerId)
      .where("kind", "in", ["signing_request", "reminder"])
      .where("status", "=", "sent")
      .orderBy("createdAt", "desc")
      .limit(1),
  { reuse: "shape" },
);

/**
 * Whether the signer's signing request went out.
 *
 * Locks: nothing (the dedupeKey's advisory lock orders copies of the job).
 */
export const requestWasSentSql = defineStatement(
  "signer-request-was-sent",
  { signerId: 1 },
  ({ signerId }) =>
    qb.selectFrom("Notification").select("id").where("signerId", "=", signerId).where("kind", "=", "signing_request").where("status", "=", "sent").limit(1),
  { reuse: "shape" },
);

/** A part of the outcome the statement writes when it is there (its shape: see withCtes below). */
export type Part = Record<string, never>;
export const PART: Part = {};

/**
 * An outcome's write as the statement takes it: the Notification's column values (notificationValues)
 * and the event serialized (serializeEvents), so that its build only passes values on and its text
 * depends on which parts are there (`reuse: "shape"`). A part is written when present.
 */
export interface MessageOutcomeRows {
  signerId: number;
  notification?: Insertable<DB["Notification"]>;
  countReminder?: Part;
  markUndeliverable?: Part;
  event?: SerializedEvent;
}

const SAMPLE_LOG: LogRow = {
  customerId: 1,
  caseFileId: 1,
  signerId: 1,
  code: 8,
  event: "requestActivated",
  actor: "system",
  userId: null,
  ip: null,
  userAgent: null,
  detailJson: null,
};

const SAMPLE_OUTCOME: MessageOutcomeRows = {
  signerId: 1,
  notification: notificationValues(SAMPLE_NOTIFICATION),
  countReminder: PART,
  markUndeliverable: PART,
  event: {
    id: "00000000-0000-4000-8000-000000000000",
    customerId: 1,
    topic: "signer",
    eventType: "sign.signer.undeliverable",
    payloadJson: "{}",
    targetSubscriptionId: null,
    log: SAMPLE_LOG,
  },
};

/**
 * Everything a message's outcome writes, in one statement: the Notification row, the reminder
 * count, a pending signer made undeliverable, and the event (for an undeliverable signer, only if it
 * really changed: one who signed meanwhile stays signed) with its NOTIFY when a subscription wants it
 * (else it is inserted relayed: relayedUnlessSubscribed). Answers the signer's
 * remindersSent after the count.
 *
 * Locks: the Signer row when it counts a reminder or marks the signer undeliverable (the UPDATE's),
 * until the transaction commits right after: the last statement, so the lock is held for moments,
 * never across the mail. A signer's action holding that row meanwhile makes this wait for it; the
 * undeliverable change then sees a signed signer and leaves it (no event either).
 */
export const writeMessageOutcomeSql = defineStatement(
  "write-message-outcome",
  SAMPLE_OUTCOME,
  (w: MessageOutcomeRows) =>
    withCtes([
      w.notification && ["notification", qb.insertInto("Notification").values(w.notification)],
      w.countReminder && [
        "counted",
        qb
          .updateTable("Signer")
          .set((eb) => ({ remindersSent: eb("remindersSent", "+", 1), updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", w.signerId)
          .returning("remindersSent"),
      ],
      w.markUndeliverable && [
        "changed",
        qb
          .updateTable("Signer")
          .set((eb) => ({ status: SIGNER_STATUS.undeliverable, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", w.signerId)
          .where("status", "=", SIGNER_STATUS.pending)
          .returning("id"),
      ],
      // Relayed at birth unless a subscription wants it (signer events of messages have no internal
      // reactions: commitMessageOutcome checks), and then no NOTIFY either.
      w.event && ["events", serializedEventInsert([w.event], w.markUndeliverable ? "changed" : undefined, relayedUnlessSubscribed)],
      w.event && ["event_log", serializedLogInsert([w.event], w.markUndeliverable ? "changed" : undefined)],
    ]).selectNoFrom((eb) => [
      w.countReminder ? valueFrom<number>("counted", "remindersSent").as("remindersSent") : eb.lit(null).as("remindersSent"),
      ...(w.event ? [notifyOutboxIfAnyUnrelayed("events").as("notified")] : []),
    ]),
  { reuse: "shape" },
);

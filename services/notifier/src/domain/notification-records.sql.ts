import { randomUUID } from "node:crypto";
import { defineStatement, qb, type DB, type Insertable } from "@esign/db";

export interface NotificationRow {
  dedupeKey: string;
  kind: string;
  channel: string;
  recipient: string;
  caseFileId: number;
  signerId?: number;
  status: string;
  messageId?: string;
  error?: string;
  /** Default: the transaction's time. */
  createdAt?: Date;
}

/** The INSERT of one Notification row. */
export function notificationInsert(r: NotificationRow) {
  return qb.insertInto("Notification").values(notificationValues(r));
}

/** The column values of a Notification row: its id drawn, optional fields made null, a long error cut. */
export function notificationValues(r: NotificationRow): Insertable<DB["Notification"]> {
  return {
    id: randomUUID(),
    dedupeKey: r.dedupeKey,
    kind: r.kind,
    channel: r.channel,
    recipient: r.recipient,
    caseFileId: r.caseFileId,
    signerId: r.signerId ?? null,
    status: r.status,
    messageId: r.messageId ?? null,
    // Server replies can be long; the row is for people reading it, not an archive.
    error: r.error ? r.error.slice(0, 1000) : null,
    ...(r.createdAt ? { createdAt: r.createdAt } : {}),
  };
}

export const SAMPLE_NOTIFICATION: NotificationRow = {
  dedupeKey: "k",
  kind: "reminder",
  channel: "email",
  recipient: "a@example.com",
  caseFileId: 1,
  signerId: 1,
  status: "sent",
  messageId: "m",
  error: "e",
  createdAt: new Date(),
};

/**
 * One Notification row: a message sent or refused (recordNotification).
 *
 * Locks: the new row (and its dedupeKey's unique index entry). The caller holds the dedupeKey's
 * advisory lock (lockDedupeKey), so a copy of the job finds this row instead of colliding with it.
 */
export const insertNotificationSql = defineStatement("insert-notification", SAMPLE_NOTIFICATION, notificationInsert);

/**
 * The Notification of a dedupeKey, if one exists: whether the message was sent (or refused for good)
 * already. A message's transaction reads it right after taking the key's advisory lock.
 *
 * Locks: nothing: the caller holds the dedupeKey's advisory lock, so a copy of the job that wrote the
 * row has committed before this statement's snapshot.
 */
export const notificationOfKeySql = defineStatement(
  "notification-of-key",
  { dedupeKey: "k" },
  ({ dedupeKey }) => qb.selectFrom("Notification").select("id").where("dedupeKey", "=", dedupeKey),
  { reuse: "shape" },
);

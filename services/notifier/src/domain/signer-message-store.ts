import { firstRead, run, runAndCommit, runOne, serializeEvents, type FirstRead, type Statement, type OutboxEvent, type SqlClient } from "@esign/db";
import { hasInternalReactions } from "@esign/schema";
import type { CaseFileDocument } from "./case-file-documents";
import type { NotificationRecord } from "./notification-records";
import { lastSentAtSql, loadSignerForMessageSql, PART, requestWasSentSql, writeMessageOutcomeSql } from "./signer-message-store.sql";
import { notificationValues } from "./notification-records.sql";

/*
 * The statements of one signing request or reminder, in plain SQL on the transaction's connection.
 * Through Prisma a request cost ~8 round trips and most of the notifier's CPU per case file (query
 * compiler, interpreter, and the loopback writes of every statement; bench/README.md); here it is
 * two round trips: BEGIN with the lock and the read (withMessageLock), then one write (the
 * Notification row, the signer's change and the event with its NOTIFY together) with COMMIT.
 */

/** The signer's own columns a message needs. */
interface SignerColumns {
  id: number;
  name: string;
  role: string;
  email: string | null;
  channel: string;
  /** Encrypted (issue 26): opened only to address the e-Boks message. */
  cprEnc: string | null;
  cvr: string | null;
  language: string | null;
  notification: unknown;
  status: number;
  deletedAt: Date | null;
  expiredAt: Date | null;
  expireAt: Date | null;
  remindersSent: number;
}

/** What a signing request or reminder is built from: the signer, the case file, its documents. */
export interface SignerForMessage extends SignerColumns {
  signingLink: { tokenEnc: string } | null;
  caseFile: {
    id: number;
    customerId: number;
    status: number;
    expiredAt: Date | null;
    expireAt: Date | null;
    title: string;
    senderName: string | null;
    sensitiveData: boolean;
    visibilityMode: number;
    language: string | null;
    /** The signers get no request: their links go to the creator (meeting-links.ts). */
    signOnMeeting: boolean;
    /** false: activated without sending (PATCH .../activate): its signers get no request or reminder. */
    sendSigningRequests: boolean;
    customer: { name: string };
    documents: CaseFileDocument[];
  };
}

/** The row of loadSignerForMessageSql. */
type SignerMessageRow = typeof loadSignerForMessageSql extends Statement<unknown, infer O> ? O : never;

/**
 * The read of the message's signer, with whether a message with this dedupeKey exists already: the
 * first read of its transaction (withMessageLock), after the dedupeKey's lock.
 */
export const signerForMessageRead = (signerId: number, dedupeKey: string): FirstRead<SignerMessageRow> =>
  firstRead(loadSignerForMessageSql, { signerId, dedupeKey });

/** The signer of loadSignerForMessageSql's row (undefined: no such signer). */
export function signerForMessageOf(r: SignerMessageRow | undefined): { signer: SignerForMessage; alreadySent: boolean } | undefined {
  if (!r) return undefined;
  const {
    tokenEnc,
    cfId,
    cfCustomerId,
    cfStatus,
    cfExpiredAt,
    cfExpireAt,
    cfTitle,
    cfSenderName,
    cfSensitiveData,
    cfVisibilityMode,
    cfLanguage,
    cfSignOnMeeting,
    cfSendSigningRequests,
    customerName,
    documents,
    alreadySent,
    ...signer
  } = r;
  return {
    alreadySent: alreadySent === true,
    signer: {
      ...signer,
      signingLink: tokenEnc === null ? null : { tokenEnc },
      caseFile: {
        id: cfId,
        customerId: cfCustomerId,
        status: cfStatus,
        expiredAt: cfExpiredAt,
        expireAt: cfExpireAt,
        title: cfTitle,
        senderName: cfSenderName,
        sensitiveData: cfSensitiveData,
        visibilityMode: cfVisibilityMode,
        language: cfLanguage,
        signOnMeeting: cfSignOnMeeting,
        sendSigningRequests: cfSendSigningRequests,
        customer: { name: customerName },
        documents,
      },
    },
  };
}

/** When the signer's last request or reminder went out, if one did. */
export async function lastSentAt(client: SqlClient, signerId: number): Promise<Date | undefined> {
  return (await runOne(client, lastSentAtSql, { signerId }))?.createdAt;
}

/** Whether the signer's signing request went out (a reminder only follows a request). */
export async function requestWasSent(client: SqlClient, signerId: number): Promise<boolean> {
  return (await run(client, requestWasSentSql, { signerId })).length > 0;
}

export interface MessageOutcomeWrite {
  /** The Notification row, unless the outcome writes none (a transient bounce). */
  notification?: NotificationRecord & { createdAt: Date };
  /** Reminder sent: the signer's remindersSent goes up by one. */
  countReminder?: boolean;
  /** Undeliverable: a pending signer becomes undeliverable, and `event` is written only if it did. */
  markUndeliverable?: boolean;
  /** Written always (requestSent, reminderSent, transientBounce), or only when markUndeliverable changed the signer. */
  event?: OutboxEvent;
}

/**
 * Everything an outcome writes, in one statement, and the COMMIT of notifySigner's transaction with it
 * (runAndCommit: one round trip fewer per message); answers the signer's remindersSent afterwards.
 * The transaction's last statement: nothing may run on `client` after it.
 */
export async function commitMessageOutcome(client: SqlClient, signerId: number, w: MessageOutcomeWrite): Promise<{ remindersSent?: number }> {
  if (!w.notification && !w.countReminder && !w.markUndeliverable && !w.event) return {};
  // Inserted relayed when no subscription wants it: only right for an event the relay has no job for.
  if (w.event && hasInternalReactions(w.event.eventType)) throw new Error(`${w.event.eventType} has internal reactions: it must go through the outbox relay`);
  const [row] = await runAndCommit(client, writeMessageOutcomeSql, {
    signerId,
    notification: w.notification && notificationValues(w.notification),
    countReminder: w.countReminder ? PART : undefined,
    markUndeliverable: w.markUndeliverable ? PART : undefined,
    event: w.event && serializeEvents([w.event])[0],
  });
  return { remindersSent: row?.remindersSent ?? undefined };
}

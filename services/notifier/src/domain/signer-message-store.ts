import {
  advisoryXactLock,
  advisoryXactLockOpening,
  run,
  runAndCommit,
  runOne,
  serializeEvents,
  type CompiledQuery,
  type OutboxEvent,
  type SqlClient,
} from "@esign/db";
import type { CaseFileDocument } from "./case-file-documents";
import { LOCK_NAMESPACE, type NotificationRecord } from "./notification-records";
import { lastSentAtSql, loadSignerForMessageSql, PART, requestWasSentSql, writeMessageOutcomeSql } from "./signer-message-store.sql";
import { notificationValues } from "./notification-records.sql";

/*
 * The statements of one signing request or reminder, in plain SQL on the transaction's connection.
 * Through Prisma a request cost ~8 round trips and most of the notifier's CPU per case file (query
 * compiler, interpreter, and the loopback writes of every statement; bench/README.md); here it is
 * the lock, one read, and one write (the Notification row, the signer's change and the event with
 * its NOTIFY together), between BEGIN and COMMIT.
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

/** Waits for the dedupeKey's advisory lock (held to the end of the transaction): copies of a job run one after the other. */
export async function lockDedupeKeySql(client: SqlClient, dedupeKey: string): Promise<void> {
  await run(client, advisoryXactLock, { namespace: LOCK_NAMESPACE, key: dedupeKey });
}

/**
 * The same lock as the opening of the message's transaction (sent with BEGIN: one round trip fewer
 * per message, issue 25), or undefined for a key that cannot be pasted into the statement's text:
 * then take it with lockDedupeKeySql.
 */
export const dedupeKeyLockOpening = (dedupeKey: string): CompiledQuery | undefined => advisoryXactLockOpening(LOCK_NAMESPACE, dedupeKey);

/**
 * The signer with everything its message needs, and whether a message with this dedupeKey exists
 * already. Call it after lockDedupeKeySql: this statement's snapshot then sees a copy's committed row.
 */
export async function loadSignerForMessage(
  client: SqlClient,
  signerId: number,
  dedupeKey: string,
): Promise<{ signer: SignerForMessage; alreadySent: boolean } | undefined> {
  const r = await runOne(client, loadSignerForMessageSql, { signerId, dedupeKey });
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
  const [row] = await runAndCommit(client, writeMessageOutcomeSql, {
    signerId,
    notification: w.notification && notificationValues(w.notification),
    countReminder: w.countReminder ? PART : undefined,
    markUndeliverable: w.markUndeliverable ? PART : undefined,
    event: w.event && serializeEvents([w.event])[0],
  });
  return { remindersSent: row?.remindersSent ?? undefined };
}

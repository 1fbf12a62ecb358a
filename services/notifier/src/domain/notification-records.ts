import {
  advisoryXactLock,
  advisoryXactLockOpening,
  run,
  runAndCommit,
  runCompiled,
  sqlPool,
  withSqlTransaction,
  type Db,
  type FirstRead,
  type SqlClient,
} from "@esign/db";
import { MailDeliveryError } from "@esign/mailer";
import { MailboxDeliveryError } from "../channels/mailbox-gateway";
import { insertNotificationSql } from "./notification-records.sql";

export type NotificationKind = "signing_request" | "reminder" | "completed" | "owner_completed" | "meeting_links";
export type NotificationChannel = "email" | "eboks";

// Namespace of these advisory locks (first key of pg_advisory_xact_lock(int, int)); the subscription
// notice uses its own, so the two kinds of keys cannot block each other by a hash collision.
export const LOCK_NAMESPACE = 0x6e6f746b; // "notk"

/**
 * A message is sent inside a transaction that holds an advisory lock on its dedupeKey, and its
 * Notification row is written in that same transaction: copies of a job run one after the other, and
 * the second finds the row. The lock, unlike a row lock, never blocks the gateway (a signer signing
 * while their reminder goes out) and is released if the process dies. The timeout covers the mailer's
 * own (10 s connect + 10 s greeting + 60 s idle socket) with room to spare: PostgreSQL ends a session
 * idle in the transaction that long (idle_in_transaction_session_timeout), releasing its lock.
 */
export const SEND_TX_OPTIONS = { timeout: 120_000 };

/**
 * Runs `fn` in a message's transaction: holding the dedupeKey's advisory lock, with the rows of
 * `read` (what the message is built from, and whether it went out already) read after the lock was
 * granted, so a copy of the job that sent it meanwhile is seen. BEGIN, the lock and the read are one
 * round trip when the key can be pasted into the opening (issue 25), else the lock and the read are
 * a round trip each. PostgreSQL ends a session idle in the transaction past the mailer's time-outs.
 */
export function withMessageLock<T, R extends Record<string, unknown>>(
  db: Db,
  dedupeKey: string,
  read: FirstRead<R>,
  fn: (client: SqlClient, rows: R[]) => Promise<T>,
): Promise<T> {
  const opening = advisoryXactLockOpening(LOCK_NAMESPACE, dedupeKey);
  const idleTimeoutMs = SEND_TX_OPTIONS.timeout;
  // Its statements find rows by key and insert from arrays: generic plans (withSqlTransaction).
  if (opening) return withSqlTransaction(sqlPool(db), fn, { idleTimeoutMs, opening, firstRead: read, genericPlans: true });
  return withSqlTransaction(
    sqlPool(db),
    async (client) => {
      await run(client, advisoryXactLock, { namespace: LOCK_NAMESPACE, key: dedupeKey });
      return fn(client, await runCompiled(client, read.query, read.repeats));
    },
    { idleTimeoutMs, genericPlans: true },
  );
}

export interface NotificationRecord {
  dedupeKey: string;
  kind: NotificationKind;
  channel: NotificationChannel;
  recipient: string;
  caseFileId: number;
  signerId?: number;
  status: "sent" | "failed";
  messageId?: string;
  error?: string;
}

/** Writes the Notification row as the transaction's last statement, with its COMMIT (runAndCommit: one round trip). */
export async function commitNotification(client: SqlClient, r: NotificationRecord): Promise<void> {
  await runAndCommit(client, insertNotificationSql, r);
}

/**
 * What a failed send means for the recipient:
 * - `permanent`: the address (or the message) was refused for good (SMTP 5xx to RCPT/DATA, or the
 *   mailbox gateway said so). Undeliverable; no retry.
 * - `bounce`: refused for now (SMTP 4xx to RCPT/DATA). A transient bounce of that recipient; retried.
 * - `retry`: our side or the way there (SMTP login, sender, network, a gateway outage). Nothing is
 *   said about the recipient; retried.
 */
export type FailureClass = "permanent" | "bounce" | "retry";

export function classifyFailure(err: unknown): FailureClass {
  if (err instanceof MailDeliveryError) {
    if (err.kind !== "recipient" && err.kind !== "message") return "retry";
    return err.permanent ? "permanent" : "bounce";
  }
  if (err instanceof MailboxDeliveryError) return err.permanent ? "permanent" : "retry";
  return "retry";
}

export function responseCodeOf(err: unknown): number | undefined {
  return err instanceof MailDeliveryError ? err.responseCode : undefined;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

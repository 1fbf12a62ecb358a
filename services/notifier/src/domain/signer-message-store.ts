import { eventInsertSql, notifyIfAnySql, SqlParams, type OutboxEvent, type SqlClient } from "@esign/db";
import { SIGNER_STATUS } from "@esign/schema";
import type { CaseFileDocument } from "./case-file-documents";
import { LOCK_NAMESPACE, notificationInsertSql, type NotificationRecord } from "./notification-records";

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
  cpr: string | null;
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
    customer: { name: string };
    documents: CaseFileDocument[];
  };
}

/** Waits for the dedupeKey's advisory lock (held to the end of the transaction): copies of a job run one after the other. */
export async function lockDedupeKeySql(client: SqlClient, dedupeKey: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock($1::int4, hashtext($2::text))", [LOCK_NAMESPACE, dedupeKey]);
}

interface LoadedRow extends SignerColumns {
  tokenEnc: string | null;
  cfId: number;
  cfCustomerId: number;
  cfStatus: number;
  cfExpiredAt: Date | null;
  cfExpireAt: Date | null;
  cfTitle: string;
  cfSenderName: string | null;
  cfSensitiveData: boolean;
  cfVisibilityMode: number;
  cfLanguage: string | null;
  customerName: string;
  documents: CaseFileDocument[];
  alreadySent: boolean;
}

/**
 * The signer with everything its message needs, and whether a message with this dedupeKey exists
 * already. Call it after lockDedupeKeySql: this statement's snapshot then sees a copy's committed row.
 */
export async function loadSignerForMessage(client: SqlClient, signerId: number, dedupeKey: string): Promise<{ signer: SignerForMessage; alreadySent: boolean } | undefined> {
  const { rows } = await client.query<LoadedRow>(
    `SELECT s.id, s.name, s.role, s.email, s.channel, s.cpr, s.cvr, s.language, s.notification, s.status, s."deletedAt", s."expiredAt",
            s."expireAt", s."remindersSent", l."tokenEnc",
            cf.id AS "cfId", cf."customerId" AS "cfCustomerId", cf.status AS "cfStatus", cf."expiredAt" AS "cfExpiredAt",
            cf."expireAt" AS "cfExpireAt", cf.title AS "cfTitle", cf."senderName" AS "cfSenderName", cf."sensitiveData" AS "cfSensitiveData",
            cf."visibilityMode" AS "cfVisibilityMode", cf.language AS "cfLanguage", c.name AS "customerName",
            (SELECT coalesce(json_agg(json_build_object('id', d.id, 'title', d.title, 'name', d.name, 'signable', d.signable, 'roles', d.roles,
                                                        'documentOrder', d."documentOrder", 'fileSha256', d."fileSha256", 'signedSha256', d."signedSha256")
                                      ORDER BY d.id), '[]'::json)
               FROM "Document" d WHERE d."caseFileId" = cf.id) AS documents,
            EXISTS (SELECT 1 FROM "Notification" n WHERE n."dedupeKey" = $2) AS "alreadySent"
       FROM "Signer" s
       JOIN "CaseFile" cf ON cf.id = s."caseFileId"
       JOIN "Customer" c ON c.id = cf."customerId"
       LEFT JOIN "SigningLink" l ON l."signerId" = s.id
      WHERE s.id = $1`,
    [signerId, dedupeKey],
  );
  const r = rows[0];
  if (!r) return undefined;
  const { tokenEnc, cfId, cfCustomerId, cfStatus, cfExpiredAt, cfExpireAt, cfTitle, cfSenderName, cfSensitiveData, cfVisibilityMode, cfLanguage, customerName, documents, alreadySent, ...signer } = r;
  return {
    alreadySent,
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
        customer: { name: customerName },
        documents,
      },
    },
  };
}

/** When the signer's last request or reminder went out, if one did. */
export async function lastSentAt(client: SqlClient, signerId: number): Promise<Date | undefined> {
  const { rows } = await client.query<{ createdAt: Date }>(
    `SELECT "createdAt" FROM "Notification" WHERE "signerId" = $1 AND kind IN ('signing_request', 'reminder') AND status = 'sent'
      ORDER BY "createdAt" DESC LIMIT 1`,
    [signerId],
  );
  return rows[0]?.createdAt;
}

/** Whether the signer's signing request went out (a reminder only follows a request). */
export async function requestWasSent(client: SqlClient, signerId: number): Promise<boolean> {
  const { rows } = await client.query(`SELECT 1 FROM "Notification" WHERE "signerId" = $1 AND kind = 'signing_request' AND status = 'sent' LIMIT 1`, [signerId]);
  return rows.length > 0;
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

/** Everything an outcome writes, in one statement; answers the signer's remindersSent afterwards. */
export async function writeMessageOutcome(client: SqlClient, signerId: number, w: MessageOutcomeWrite): Promise<{ remindersSent?: number }> {
  const p = new SqlParams();
  // Added where first used: PostgreSQL cannot type a parameter that no statement part mentions.
  let signerParam: string | undefined;
  const signer = () => (signerParam ??= p.add(signerId, "int"));
  const ctes: string[] = [];
  const n = w.notification;
  if (n) {
    ctes.push(`notification AS (${notificationInsertSql(n, p)})`);
  }
  if (w.countReminder) {
    ctes.push(`counted AS (UPDATE "Signer" SET "remindersSent" = "remindersSent" + 1, "updatedAt" = now() WHERE id = ${signer()} RETURNING "remindersSent")`);
  }
  if (w.markUndeliverable) {
    ctes.push(`changed AS (
      UPDATE "Signer" SET status = ${p.add(SIGNER_STATUS.undeliverable, "int")}, "updatedAt" = now()
      WHERE id = ${signer()} AND status = ${p.add(SIGNER_STATUS.pending, "int")} RETURNING id)`);
  }
  let notified = "";
  if (w.event) {
    // An undeliverable event only when the signer really changed (one who signed meanwhile stays signed).
    const insert = eventInsertSql([w.event], p, w.markUndeliverable ? "EXISTS (SELECT 1 FROM changed)" : undefined);
    ctes.push(`events AS (${insert.sql})`);
    notified = `, (${notifyIfAnySql("events")}) AS notified`;
  }
  if (ctes.length === 0) return {};
  const reminders = w.countReminder ? `(SELECT "remindersSent" FROM counted)` : "NULL::int";
  const { rows } = await client.query<{ remindersSent: number | null }>(`WITH ${ctes.join(",\n")} SELECT ${reminders} AS "remindersSent"${notified}`, p.values);
  return { remindersSent: rows[0]?.remindersSent ?? undefined };
}

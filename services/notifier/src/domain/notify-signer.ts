import { decryptSecret, openStoredId, trackingId, type OutboxEvent, type SqlClient } from "@esign/db";
import type { MailMessage } from "@esign/mailer";
import { CASEFILE_STATUS, SIGNER_STATUS, signerEvent, type SignerEventType } from "@esign/schema";
import type { MailboxMessage } from "../channels/mailbox-gateway";
import type { NotifierContext } from "../context";
import { fromNameOf } from "./case-file-documents";
import { EBOKS_DEFAULT_LANGUAGE, EMAIL_DEFAULT_LANGUAGE, resolveLanguage } from "@esign/i18n";
import { classifyFailure, errorText, responseCodeOf, withMessageLock, type NotificationChannel } from "./notification-records";
import { renderHtml, renderText } from "./render-message";
import { signerMessageContent } from "./signer-message";
import { emailFormatOf, signerSettings } from "./signer-settings";
import { lastSentAt, requestWasSent, commitMessageOutcome, signerForMessageOf, signerForMessageRead, type SignerForMessage } from "./signer-message-store";

export type SignerMessageKind = "signing_request" | "reminder";

/** What the caller needs to keep the reminder chain going after the transaction. */
export interface ReminderState {
  signerId: number;
  /** Signer.notification.reminderInterval in days; null: no reminders. */
  reminderIntervalDays: number | null;
  remindersSent: number;
  /** When the last request or reminder went out: the next reminder is due an interval later. */
  lastSentAt: Date;
  /** Still pending (only then is another reminder due). */
  pending: boolean;
}

export type SkipReason =
  | "not_found"
  | "already_sent"
  | "signer_not_pending"
  | "signer_expired"
  | "casefile_not_pending"
  | "casefile_expired"
  | "no_signing_link"
  | "request_not_sent"
  | "no_reminder_interval"
  /** signOnMeeting: no request to the signer; the caller sends the creator the link (meeting-links.ts). */
  | "sign_on_meeting"
  /** Activated without sending (PATCH .../activate): the integrator hands out the links. */
  | "activated_without_sending";

export type SignerOutcome =
  | { status: "sent"; channel: NotificationChannel; messageId: string; reminders: ReminderState }
  /** Refused for good, or no address to send to: the signer is now undeliverable (status 5). */
  | { status: "undeliverable"; channel: NotificationChannel; reason: string; responseCode?: number }
  /** Refused for now (4xx): transientBounce was recorded; the caller throws `error` so BullMQ retries. */
  | { status: "bounced"; channel: NotificationChannel; error: unknown; responseCode?: number }
  | { status: "skipped"; reason: SkipReason; reminders?: ReminderState };

const SENT_EVENT: Record<SignerMessageKind, SignerEventType> = {
  signing_request: "sign.signer.requestSent",
  reminder: "sign.signer.reminderSent",
};

/** Why this signer must not get a request or a reminder now, if they must not. */
function notPendingReason(s: SignerForMessage, now: Date): SkipReason | undefined {
  if (s.status !== SIGNER_STATUS.pending || s.deletedAt) return "signer_not_pending";
  if (s.expiredAt || (s.expireAt && s.expireAt <= now)) return "signer_expired";
  if (s.caseFile.status !== CASEFILE_STATUS.pending) return "casefile_not_pending";
  if (s.caseFile.expiredAt || (s.caseFile.expireAt && s.caseFile.expireAt <= now)) return "casefile_expired";
  return undefined;
}

function isPending(s: SignerForMessage, now: Date): boolean {
  return notPendingReason(s, now) === undefined;
}

/** The signer's link, or undefined when its token cannot be read (no link row, or one from before tokens were kept). */
function signingLinkOf(ctx: NotifierContext, s: SignerForMessage): string | undefined {
  const enc = s.signingLink?.tokenEnc;
  if (!enc) return undefined;
  try {
    return `${ctx.config.PUBLIC_BASE_URL}/sign/${decryptSecret(enc, ctx.config.ENCRYPTION_KEYRING)}`;
  } catch {
    return undefined;
  }
}

/** A CPR number is personal: the Notification row keeps only its birth-date part. CVR numbers are public. */
function eboksRecipientLabel(s: { cpr: string | null; cvr: string | null }): string {
  if (s.cvr) return `cvr:${s.cvr}`;
  return `cpr:${(s.cpr ?? "").slice(0, 6)}-****`;
}

interface Delivery {
  channel: NotificationChannel;
  /** What the Notification row names as recipient. */
  recipient: string;
  /** Set when there is nobody to send to: the signer is undeliverable without trying. */
  unreachable?: string;
  send(): Promise<string>;
}

function buildDelivery(ctx: NotifierContext, kind: SignerMessageKind, s: SignerForMessage, link: string, dedupeKey: string): Delivery {
  const cf = s.caseFile;
  const settings = signerSettings(s.notification);
  const base = {
    kind,
    signer: { name: s.name, role: s.role },
    caseFile: {
      title: cf.title,
      senderName: cf.senderName,
      customerName: cf.customer.name,
      sensitiveData: cf.sensitiveData,
      visibilityMode: cf.visibilityMode,
    },
    documents: cf.documents,
    settings,
    link,
  };

  if (s.channel === "eboks") {
    // The e-Boks message is addressed by the CPR number: the one reader besides accessControl that opens it.
    const cpr = openStoredId(s.cprEnc, ctx.config.ENCRYPTION_KEYRING);
    const recipient = { name: s.name, ...(cpr ? { cpr } : s.cvr ? { cvr: s.cvr } : {}) };
    const language = resolveLanguage([s.language, cf.language], EBOKS_DEFAULT_LANGUAGE);
    const content = signerMessageContent({ ...base, language });
    const message: MailboxMessage = { recipient, language, subject: content.subject, body: renderText(content), link, idempotencyKey: dedupeKey };
    return {
      channel: "eboks",
      recipient: eboksRecipientLabel({ cpr, cvr: s.cvr }),
      unreachable: cpr || s.cvr ? undefined : "no cpr or cvr for the e-Boks channel",
      send: async () => (await ctx.mailbox.deliver(message)).messageId,
    };
  }

  const language = resolveLanguage([s.language, cf.language], EMAIL_DEFAULT_LANGUAGE);
  const html = emailFormatOf(settings) === "html";
  // Only the first request carries the open-tracking image: requestOpened means "the signing request
  // email was opened", and reminders have their own event.
  const trackingPixelUrl =
    html && kind === "signing_request" ? `${ctx.config.PUBLIC_BASE_URL}/t/${trackingId(s.id, ctx.config.ENCRYPTION_KEY)}.gif` : undefined;
  const content = signerMessageContent({ ...base, language, trackingPixelUrl });
  const email = s.email?.trim();
  const message: MailMessage = {
    to: email ? [email] : [],
    subject: content.subject,
    text: renderText(content),
    html: html ? renderHtml(content) : undefined,
    fromName: fromNameOf(cf.senderName),
    headers: {
      "X-Esign-Notification": kind === "signing_request" ? "signing-request" : "reminder",
      "X-Esign-Case-File-Id": String(cf.id),
      "X-Esign-Signer-Id": String(s.id),
      // RFC 3834: automatic mail; out-of-office replies should not answer it.
      "Auto-Submitted": "auto-generated",
    },
  };
  return {
    channel: "email",
    recipient: email ?? "",
    unreachable: email ? undefined : "no email address for the email channel",
    send: async () => (await ctx.mailer.send(message)).messageId,
  };
}

async function reminderStateOf(client: SqlClient, s: SignerForMessage, now: Date): Promise<ReminderState> {
  return {
    signerId: s.id,
    reminderIntervalDays: signerSettings(s.notification).reminderInterval ?? null,
    remindersSent: s.remindersSent,
    lastSentAt: (await lastSentAt(client, s.id)) ?? now,
    pending: isPending(s, now),
  };
}

/**
 * Sends one signing request or reminder to one signer, at most once per dedupeKey, by the signer's
 * channel. The Notification row, the signer's changes and the event commit together, so an event
 * exists exactly when the message it reports went out (or was refused for good).
 */
export async function notifySigner(ctx: NotifierContext, kind: SignerMessageKind, signerId: number, dedupeKey: string): Promise<SignerOutcome> {
  return withMessageLock(ctx.db, dedupeKey, signerForMessageRead(signerId, dedupeKey), async (client, rows): Promise<SignerOutcome> => {
    const now = new Date();
    const loaded = signerForMessageOf(rows[0]);
    if (!loaded) return { status: "skipped", reason: "not_found" };
    const s = loaded.signer;
    const cf = s.caseFile;
    const eventOf = (eventType: SignerEventType): OutboxEvent => signerEvent(cf, cf.status, s.id, eventType);

    if (loaded.alreadySent) return { status: "skipped", reason: "already_sent", reminders: await reminderStateOf(client, s, now) };
    const blocked = notPendingReason(s, now);
    if (blocked) return { status: "skipped", reason: blocked };
    // Activated rather than sent (PATCH .../activate: Penneo's "no outbound send"): the integrator
    // hands the links out, so no request, reminder or e-Boks message goes to the signers.
    if (!cf.sendSigningRequests) return { status: "skipped", reason: "activated_without_sending" };
    if (kind === "reminder") {
      if (!signerSettings(s.notification).reminderInterval) return { status: "skipped", reason: "no_reminder_interval" };
      if (!(await requestWasSent(client, signerId))) return { status: "skipped", reason: "request_not_sent" };
    }
    const link = signingLinkOf(ctx, s);
    if (!link) return { status: "skipped", reason: "no_signing_link" };
    if (kind === "signing_request" && cf.signOnMeeting) return { status: "skipped", reason: "sign_on_meeting" };

    const delivery = buildDelivery(ctx, kind, s, link, dedupeKey);
    const record = { dedupeKey, kind, channel: delivery.channel, caseFileId: cf.id, signerId };
    const undeliverable = async (reason: string, responseCode?: number): Promise<SignerOutcome> => {
      // Only a pending signer becomes undeliverable (and gets the event): one who signed meanwhile stays signed.
      await commitMessageOutcome(client, signerId, {
        notification: { ...record, recipient: delivery.recipient || "(none)", status: "failed", error: reason, createdAt: new Date() },
        markUndeliverable: true,
        event: eventOf("sign.signer.undeliverable"),
      });
      return { status: "undeliverable", channel: delivery.channel, reason, responseCode };
    };
    if (delivery.unreachable) return undeliverable(delivery.unreachable);

    // Over the customer's minute: thrown out of the transaction (nothing written), the job waits.
    await ctx.mailThrottle.take(cf.customerId);
    let messageId: string;
    try {
      messageId = await delivery.send();
    } catch (err) {
      switch (classifyFailure(err)) {
        case "permanent":
          return undeliverable(errorText(err), responseCodeOf(err));
        case "bounce":
          // Committed although the job fails: each refused attempt is reported once, and the retry
          // (a new attempt) finds no Notification row and sends again.
          await commitMessageOutcome(client, signerId, { event: eventOf("sign.signer.transientBounce") });
          return { status: "bounced", channel: delivery.channel, error: err, responseCode: responseCodeOf(err) };
        case "retry":
          throw err;
      }
    }

    // The next reminder counts from when this one went out, not from when the job started.
    const sentAt = new Date();
    const written = await commitMessageOutcome(client, signerId, {
      notification: { ...record, recipient: delivery.recipient, status: "sent", messageId, createdAt: sentAt },
      countReminder: kind === "reminder",
      event: eventOf(SENT_EVENT[kind]),
    });
    return {
      status: "sent",
      channel: delivery.channel,
      messageId,
      reminders: {
        signerId,
        reminderIntervalDays: signerSettings(s.notification).reminderInterval ?? null,
        remindersSent: written.remindersSent ?? s.remindersSent,
        lastSentAt: sentAt,
        pending: true,
      },
    };
  });
}

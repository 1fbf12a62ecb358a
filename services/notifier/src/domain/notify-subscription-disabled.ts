import { advisoryXactLock, run, runOne, type Tx } from "@esign/db";
import { EMAIL_DEFAULT_LANGUAGE, resolveLanguage } from "@esign/i18n";
import { MailDeliveryError } from "@esign/mailer";
import type { NotifierContext } from "../context";
import { subscriptionDisabledMessage } from "./subscription-disabled-message";
import { markDisabledNotifiedSql, subscriptionToNotifySql } from "./notify-subscription-disabled.sql";
import { lastFailureOf, noticeRecipients } from "./subscription-notice";

export type NotifyOutcome =
  | { status: "sent"; messageId: string; recipients: string[]; rejected: string[] }
  /** The server refused it for good (5xx): marked notified so that no retry repeats the refusal. */
  | { status: "undeliverable"; recipients: string[]; responseCode?: number; error: string }
  | { status: "skipped"; reason: "not_found" | "deleted" | "not_disabled" | "already_notified" | "no_recipients" };

// Namespace of our advisory locks (first key of pg_advisory_xact_lock(int, int)), so that the hash of
// a subscription id cannot collide with locks other code takes on plain integers.
const LOCK_NAMESPACE = 0x6e6f7469; // "noti"

/*
 * The mail is sent inside a transaction that holds an advisory lock on the subscription: two copies of
 * the job (a sweeper re-adding it, a manual retry) then run one after the other, and the second sees
 * disabledNotifiedAt set by the first. The lock, unlike a row lock, does not block the gateway's
 * re-enable call meanwhile, and it is released if this process dies. The timeout covers the mailer's
 * own (10 s connect + 10 s greeting + 60 s idle socket) with room to spare.
 */
const TX_OPTIONS = { maxWait: 10_000, timeout: 120_000 };

/**
 * Tells the creator and every administrator of the customer that a subscription was disabled, once
 * per disablement: nothing happens when disabledNotifiedAt is already at or after disabledAt. One
 * message to all of them rather than one each: it is one SMTP transaction, so it either went out or
 * did not, and a retry after a 4xx cannot mail again the people who already got it (there is one
 * disabledNotifiedAt, not one per recipient); and each reader sees who else knows.
 * Transient mail failures throw, so BullMQ retries the job; permanent ones are logged and the
 * notification counts as done.
 */
export async function notifySubscriptionDisabled(ctx: NotifierContext, subscriptionId: string): Promise<NotifyOutcome> {
  return ctx.db.$transaction(async (tx) => {
    await run(tx, advisoryXactLock, { namespace: LOCK_NAMESPACE, key: subscriptionId });

    const sub = await runOne(tx, subscriptionToNotifySql, { subscriptionId });
    if (!sub) return { status: "skipped", reason: "not_found" } as const;
    if (sub.deletedAt) return { status: "skipped", reason: "deleted" } as const;
    // Re-enabled before this job ran: the mail would ask them to do what is already done.
    if (sub.isActive || !sub.disabledAt) return { status: "skipped", reason: "not_disabled" } as const;
    const disabledAt = sub.disabledAt;
    if (sub.disabledNotifiedAt && sub.disabledNotifiedAt >= disabledAt) return { status: "skipped", reason: "already_notified" } as const;

    const recipients = await noticeRecipients(tx, sub.customerId, sub.creatorEmail);
    if (recipients.length === 0) {
      ctx.logger.error("subscription disabled but nobody to tell: creator and admins have no email address", { subscriptionId });
      await markNotified(tx, subscriptionId, disabledAt);
      return { status: "skipped", reason: "no_recipients" } as const;
    }

    const message = subscriptionDisabledMessage({
      subscriptionId,
      endpoint: sub.endpoint,
      eventTypes: sub.eventTypes,
      customerName: sub.customerName,
      language: resolveLanguage([sub.customerLanguage], EMAIL_DEFAULT_LANGUAGE),
      disabledAt,
      lastFailure: await lastFailureOf(tx, subscriptionId),
      apiBaseUrl: ctx.config.PUBLIC_BASE_URL,
      recipients,
    });

    try {
      const result = await ctx.mailer.send(message);
      await markNotified(tx, subscriptionId, disabledAt);
      return { status: "sent", messageId: result.messageId, recipients, rejected: result.rejected } as const;
    } catch (err) {
      if (!(err instanceof MailDeliveryError) || !err.permanent) throw err;
      await markNotified(tx, subscriptionId, disabledAt);
      return { status: "undeliverable", recipients, responseCode: err.responseCode, error: err.message } as const;
    }
  }, TX_OPTIONS);
}

/**
 * Records the notice for this disablement only: if the subscription was re-enabled and disabled again
 * meanwhile, disabledAt moved and that newer disablement still gets its own mail.
 */
async function markNotified(tx: Tx, subscriptionId: string, disabledAt: Date): Promise<void> {
  // Never earlier than disabledAt: disabledAt comes from another machine's clock, and a notice stamped
  // before it would look like one for an older disablement and be sent again.
  const at = new Date(Math.max(Date.now(), disabledAt.getTime()));
  await run(tx, markDisabledNotifiedSql, { subscriptionId, disabledAt, at });
}

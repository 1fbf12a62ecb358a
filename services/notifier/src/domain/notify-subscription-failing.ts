import { advisoryXactLock, run, runOne } from "@esign/db";
import { EMAIL_DEFAULT_LANGUAGE, resolveLanguage } from "@esign/i18n";
import { MailDeliveryError } from "@esign/mailer";
import type { NotifierContext } from "../context";
import { subscriptionToNotifySql } from "./notify-subscription-disabled.sql";
import { lastFailureOf, noticeRecipients } from "./subscription-notice";
import { subscriptionFailingMessage } from "./subscription-failing-message";

export type FailingOutcome =
  | { status: "sent"; messageId: string; recipients: string[] }
  | { status: "undeliverable"; error: string }
  | { status: "skipped"; reason: "not_found" | "not_active" | "no_recipients" };

// Its own namespace of advisory locks ("fail"), apart from the disabled notice's.
const LOCK_NAMESPACE = 0x6661696c;

/**
 * Warns the creator and the administrators that a subscription's deliveries have been failing since
 * `since`. Its job is enqueued once per failing streak (the dispatcher marks the streak warned in the
 * transaction that writes the `webhook.subscription.failing` event); copies of the job run one after
 * the other under an advisory lock. Skipped once the subscription is disabled or deleted: the disabled
 * mail says more.
 */
export async function notifySubscriptionFailing(ctx: NotifierContext, subscriptionId: string, since: Date): Promise<FailingOutcome> {
  return ctx.db.$transaction(
    async (tx) => {
      await run(tx, advisoryXactLock, { namespace: LOCK_NAMESPACE, key: subscriptionId });
      const sub = await runOne(tx, subscriptionToNotifySql, { subscriptionId });
      if (!sub) return { status: "skipped", reason: "not_found" } as const;
      if (sub.deletedAt || !sub.isActive) return { status: "skipped", reason: "not_active" } as const;
      const recipients = await noticeRecipients(tx, sub.customerId, sub.creatorEmail);
      if (recipients.length === 0) return { status: "skipped", reason: "no_recipients" } as const;
      const message = subscriptionFailingMessage({
        subscriptionId,
        endpoint: sub.endpoint,
        customerName: sub.customerName,
        language: resolveLanguage([sub.customerLanguage], EMAIL_DEFAULT_LANGUAGE),
        since,
        lastFailure: await lastFailureOf(tx, subscriptionId),
        apiBaseUrl: ctx.config.PUBLIC_BASE_URL,
        recipients,
      });
      try {
        const result = await ctx.mailer.send(message);
        return { status: "sent", messageId: result.messageId, recipients } as const;
      } catch (err) {
        if (!(err instanceof MailDeliveryError) || !err.permanent) throw err;
        return { status: "undeliverable", error: err.message } as const;
      }
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}

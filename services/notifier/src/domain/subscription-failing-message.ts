import type { TLanguage } from "@esign/i18n";
import type { MailMessage } from "@esign/mailer";
import { messagesFor } from "./messages/catalog";
import { describeFailure, formatUtc, SUBSCRIPTIONS_API_PATH, type LastFailedAttempt } from "./subscription-disabled-message";

export interface SubscriptionFailingNotice {
  subscriptionId: string;
  endpoint: string;
  customerName: string;
  language: TLanguage;
  /** The first failed attempt with no success since. */
  since: Date;
  lastFailure?: LastFailedAttempt;
  apiBaseUrl: string;
  recipients: string[];
}

/** Plain text, like the disabled mail: the warning that comes before it, while nothing is lost yet. */
export function subscriptionFailingMessage(n: SubscriptionFailingNotice): MailMessage {
  const t = messagesFor(n.language);
  const labels = t.subscriptionDisabled;
  const lines = [
    t.subscriptionFailing.intro(n.customerName, formatUtc(n.since)),
    "",
    `${labels.endpoint}: ${n.endpoint}`,
    `${labels.subscription}: ${n.subscriptionId} (${n.apiBaseUrl.replace(/\/$/, "")}${SUBSCRIPTIONS_API_PATH}/${n.subscriptionId})`,
    ...(n.lastFailure ? [labels.lastFailure(describeFailure(n.lastFailure, n.language))] : []),
    "",
    t.subscriptionFailing.action,
    "",
    labels.reason(n.customerName),
  ];
  return {
    to: n.recipients,
    subject: t.subscriptionFailing.subject(n.endpoint),
    text: `${lines.join("\n")}\n`,
    headers: { "X-Esign-Notification": "subscription-failing", "X-Esign-Subscription-Id": n.subscriptionId, "Content-Language": n.language },
  };
}

import type { TLanguage } from "@esign/i18n";
import type { MailMessage } from "@esign/mailer";
import { messagesFor } from "./messages/catalog";
import type { SubscriptionDisabledMessages } from "./messages/notifier-messages";

/** The contract's ladder: a delivery is retried 35 times before its subscription is disabled. */
export const RETRIES_BEFORE_DISABLE = 35;

export const SUBSCRIPTIONS_API_PATH = "/webhook/api/v1/subscriptions";

export interface LastFailedAttempt {
  cause: string;
  httpStatus: number | null;
  at: Date;
}

export interface SubscriptionDisabledNotice {
  subscriptionId: string;
  endpoint: string;
  eventTypes: string[];
  customerName: string;
  /** The customer's language (Customer.language), else English: the mail's channel default. */
  language: TLanguage;
  disabledAt: Date;
  lastFailure?: LastFailedAttempt;
  /** The API's public base URL, so the re-enable call can be copied as is. */
  apiBaseUrl: string;
  recipients: string[];
}

/** `2026-11-21 10:15:00 UTC`: unambiguous for readers in any time zone. */
export function formatUtc(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

const CAUSES: Record<string, (c: SubscriptionDisabledMessages["causes"], status: number | null) => string> = {
  connect_timeout: (c) => c.connectTimeout,
  response_timeout: (c) => c.responseTimeout,
  connection_refused: (c) => c.connectionRefused,
  tls_error: (c) => c.tlsError,
  dns_error: (c) => c.dnsError,
  non_2xx: (c, status) => c.non2xx(status === null ? "non-2xx" : String(status)),
  blocked_address: (c) => c.blockedAddress,
  network_error: (c) => c.networkError,
};

/** WebhookAttempt.cause in words a customer's developer can act on, with the attempt's time. */
export function describeFailure(f: LastFailedAttempt, language: TLanguage = "en"): string {
  const text = CAUSES[f.cause]?.(messagesFor(language).subscriptionDisabled.causes, f.httpStatus) ?? f.cause;
  return `${text} (${formatUtc(f.at)})`;
}

/** "Label:" padded to the longest label, so the values line up in any language. */
function aligned(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([label]) => label.length)) + 3;
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`);
}

/**
 * One plain-text message: it has to be read by whoever is on call, in any client, and the re-enable
 * call in it must survive copy and paste - HTML adds nothing to that.
 */
export function subscriptionDisabledMessage(n: SubscriptionDisabledNotice): MailMessage {
  const t = messagesFor(n.language).subscriptionDisabled;
  const putUrl = `${n.apiBaseUrl.replace(/\/$/, "")}${SUBSCRIPTIONS_API_PATH}/${n.subscriptionId}`;
  const lines = [
    t.intro(n.customerName),
    "",
    ...aligned([
      [t.endpoint, n.endpoint],
      [t.subscription, n.subscriptionId],
      [t.eventTypes, n.eventTypes.join(", ") || t.noEventTypes],
      [t.disabledAt, formatUtc(n.disabledAt)],
    ]),
    "",
    t.whyHeading,
    t.why(String(RETRIES_BEFORE_DISABLE)),
    ...(n.lastFailure ? [t.lastFailure(describeFailure(n.lastFailure, n.language))] : []),
    "",
    t.howHeading,
    `1. ${t.stepAnswerFast}`,
    `2. ${t.stepReEnable}`,
    "",
    `   PUT ${putUrl}`,
    "   Content-Type: application/json",
    "",
    '   {"isActive": true}',
    "",
    `   ${t.resumeNotice}`,
    `   ${t.webApplicationNotice}`,
    "",
    t.reason(n.customerName),
  ];
  return {
    to: n.recipients,
    subject: t.subject(n.endpoint),
    text: `${lines.join("\n")}\n`,
    headers: { "X-Esign-Notification": "subscription-disabled", "X-Esign-Subscription-Id": n.subscriptionId, "Content-Language": n.language },
  };
}

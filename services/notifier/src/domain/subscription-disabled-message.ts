import type { MailMessage } from "@esign/mailer";

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
  disabledAt: Date;
  lastFailure?: LastFailedAttempt;
  /** The API's public base URL, so the re-enable call can be copied as is. */
  apiBaseUrl: string;
  recipients: string[];
}

// WebhookAttempt.cause values in words a customer's developer can act on.
const CAUSE_TEXT: Record<string, (status: number | null) => string> = {
  connect_timeout: () => "the connection was not established within 200 ms",
  response_timeout: () => "the endpoint did not answer within 1 second",
  connection_refused: () => "the connection was refused",
  tls_error: () => "the TLS handshake failed (certificate or protocol problem)",
  dns_error: () => "the host name could not be resolved",
  non_2xx: (status) => `the endpoint answered HTTP ${status ?? "status other than 2xx"}`,
  blocked_address: () => "the host name resolves to a private or reserved address, which we do not deliver to",
  network_error: () => "a network error interrupted the request",
};

/** `2026-11-21 10:15:00 UTC`: unambiguous for readers in any time zone. */
export function formatUtc(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

export function describeFailure(f: LastFailedAttempt): string {
  const text = CAUSE_TEXT[f.cause]?.(f.httpStatus) ?? f.cause;
  return `${text} (${formatUtc(f.at)})`;
}

/**
 * One plain-text message: it has to be read by whoever is on call, in any client, and the re-enable
 * call in it must survive copy and paste - HTML adds nothing to that.
 */
export function subscriptionDisabledMessage(n: SubscriptionDisabledNotice): MailMessage {
  const putUrl = `${n.apiBaseUrl.replace(/\/$/, "")}${SUBSCRIPTIONS_API_PATH}/${n.subscriptionId}`;
  const lines = [
    `A webhook subscription of ${n.customerName} has been disabled. No events are delivered to it until it is re-enabled.`,
    "",
    `Endpoint:      ${n.endpoint}`,
    `Subscription:  ${n.subscriptionId}`,
    `Event types:   ${n.eventTypes.join(", ") || "(none)"}`,
    `Disabled at:   ${formatUtc(n.disabledAt)}`,
    "",
    "Why",
    `An event could not be delivered to this endpoint: the first attempt and all ${RETRIES_BEFORE_DISABLE} retries failed`,
    "(only a 2xx answer within 1 second counts as delivered). After the last retry the subscription was disabled",
    "so that deliveries stop piling up against an endpoint that does not answer.",
    ...(n.lastFailure ? [`Last failed attempt: ${describeFailure(n.lastFailure)}.`] : []),
    "",
    "How to re-enable it",
    "1. Make sure the endpoint answers 2xx within 1 second (acknowledge first, process afterwards).",
    "2. Re-enable the subscription with the Edit Subscription call, authenticated like your other API calls",
    "   (X-Auth-Token). You can correct the endpoint URL in the same call.",
    "",
    `   PUT ${putUrl}`,
    "   Content-Type: application/json",
    "",
    '   {"isActive": true}',
    "",
    "   Deliveries that were waiting while it was disabled start again once it is active.",
    "   The web application offers the same under Configure, Webhooks.",
    "",
    `You receive this email because you created this subscription or are an administrator of ${n.customerName}.`,
  ];
  return {
    to: n.recipients,
    subject: `Webhook subscription disabled: ${n.endpoint}`,
    text: `${lines.join("\n")}\n`,
    headers: { "X-Esign-Notification": "subscription-disabled", "X-Esign-Subscription-Id": n.subscriptionId },
  };
}

/** WebhookDelivery.state values (the column is a plain string; these are the only ones written). */
export const DELIVERY_STATE = {
  /** Waiting for its next attempt (nextAttemptAt). */
  pending: "pending",
  succeeded: "succeeded",
  /** All 36 attempts of its ladder failed; its subscription was disabled. */
  exhausted: "exhausted",
  /** Its subscription is disabled; resumeSubscription starts a new ladder. */
  suspended: "suspended",
  /** Its subscription was deleted. */
  cancelled: "cancelled",
} as const;
export type DeliveryState = (typeof DELIVERY_STATE)[keyof typeof DELIVERY_STATE];

/** WebhookAttempt.cause values: why an attempt ended as it did (`ok` for a 2xx). */
export const ATTEMPT_CAUSES = [
  "ok",
  "connect_timeout",
  "response_timeout",
  "connection_refused",
  "tls_error",
  "dns_error",
  "non_2xx",
  "blocked_address",
  "network_error",
] as const;
export type AttemptCause = (typeof ATTEMPT_CAUSES)[number];

export type AttemptOutcome = "success" | "failure";

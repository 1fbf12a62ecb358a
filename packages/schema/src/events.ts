import { z } from "zod";

/** Every event type of the spec; subscriptions may hold only these. */
export const CASEFILE_EVENT_TYPES = ["sign.casefile.completed", "sign.casefile.expired", "sign.casefile.failed", "sign.casefile.rejected"] as const;

export const SIGNER_EVENT_TYPES = [
  "sign.signer.requestActivated",
  "sign.signer.requestSent",
  "sign.signer.reminderSent",
  "sign.signer.requestOpened",
  "sign.signer.undeliverable",
  "sign.signer.opened",
  "sign.signer.rejected",
  "sign.signer.signed",
  "sign.signer.signedWithImageUploadAndNAP",
  "sign.signer.finalized",
  "sign.signer.deleted",
  "sign.signer.transientBounce",
] as const;

export const TEST_EVENT_TYPE = "webhook.subscription.test" as const;

/** Operational events about a subscription itself: its deliveries keep failing, or the ladder disabled it. */
export const SUBSCRIPTION_ALERT_EVENT_TYPES = ["webhook.subscription.failing", "webhook.subscription.disabled"] as const;

export const EVENT_TYPES = [...CASEFILE_EVENT_TYPES, ...SIGNER_EVENT_TYPES, TEST_EVENT_TYPE, ...SUBSCRIPTION_ALERT_EVENT_TYPES] as const;
export const ZEventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof ZEventType>;

export type EventTopic = "casefile" | "signer" | "subscription";

/**
 * An event type is `app.topic.event`; a delivery's body carries the topic and the event's name
 * within it (`{"topic":"casefile","eventType":"completed"}`, as Penneo's SDKs document it), its
 * `X-Event-Type` header the whole type.
 */
export function splitEventType(eventType: EventType): { topic: EventTopic; name: string } {
  const [, topic, ...name] = eventType.split(".");
  return { topic: topic as EventTopic, name: name.join(".") };
}

export const topicOf = (eventType: EventType): EventTopic => splitEventType(eventType).topic;

/** Default payloads of the spec. */
export const ZCaseFilePayload = z.object({ id: z.number().int(), status: z.number().int() });
export const ZSignerPayload = z.object({
  id: z.number().int(),
  caseFile: z.object({ id: z.number().int(), status: z.number().int() }),
});

/** The payload of a subscription alert: which subscription, and since when it fails (or when it was disabled). */
export const ZSubscriptionAlertPayload = z.object({
  subscriptionId: z.string(),
  endpoint: z.string(),
  /** ISO time of the first failed attempt with no success since. */
  failingSince: z.string().nullable(),
  /** ISO time it was disabled; null for `failing`. */
  disabledAt: z.string().nullable(),
});

/** Case file statuses of the contract. */
export const CASEFILE_STATUS = {
  new: 0,
  pending: 1,
  rejected: 2,
  deleted: 3,
  signed: 4,
  completed: 5,
  failed: 6,
  expired: 7,
} as const;

/** Signer statuses of the contract. */
export const SIGNER_STATUS = {
  new: 0,
  pending: 1,
  rejected: 2,
  deleted: 3,
  signed: 4,
  undeliverable: 5,
} as const;

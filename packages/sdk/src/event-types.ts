/** Case file events of the spec (`app.topic.event`). */
export const CASEFILE_EVENT_TYPES = [
  "sign.casefile.completed",
  "sign.casefile.expired",
  "sign.casefile.failed",
  "sign.casefile.rejected",
] as const;

/** Signer events of the spec. */
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

/** The test event that `subscriptions.sendTest` triggers. */
export const TEST_EVENT_TYPE = "webhook.subscription.test" as const;

/** Every event type a subscription may hold. */
export const EVENT_TYPES = [...CASEFILE_EVENT_TYPES, ...SIGNER_EVENT_TYPES, TEST_EVENT_TYPE] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * An event type in a request: the known ones autocomplete, and any other string still compiles, so a
 * type added on the server can be used before this SDK learns about it.
 */
export type EventTypeName = EventType | (string & {});

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

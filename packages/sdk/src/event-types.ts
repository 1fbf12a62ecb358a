// One source of truth for the spec's lists: the server validates subscriptions against the same ones.
import { CASEFILE_EVENT_TYPES, EVENT_TYPES, SIGNER_EVENT_TYPES, TEST_EVENT_TYPE } from "@esign/schema";

export { CASEFILE_EVENT_TYPES, EVENT_TYPES, SIGNER_EVENT_TYPES, TEST_EVENT_TYPE };

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * An event type in a request: the known ones autocomplete, and any other string still compiles, so a
 * type added on the server can be used before this SDK learns about it.
 */
export type EventTypeName = EventType | (string & {});

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

import { z } from "zod";
import type { LogAudit } from "./audit";
import {
  CASEFILE_EVENT_TYPES,
  SIGNER_EVENT_TYPES,
  SUBSCRIPTION_ALERT_EVENT_TYPES,
  TEST_EVENT_TYPE,
  ZCaseFilePayload,
  ZSignerPayload,
  ZSubscriptionAlertPayload,
  type EventTopic,
  type EventType,
} from "./events";

/*
 * The event catalog, beside the job catalog (jobs.ts): every event type with its topic and its
 * payload schema, and the builders every writer uses, so that an event is shaped in one place.
 * Adding a type here, to the list in events.ts, is all a new event needs; the relay, the body
 * builder and the subscription API read the same lists.
 */

export type CaseFileEventType = (typeof CASEFILE_EVENT_TYPES)[number];
export type SignerEventType = (typeof SIGNER_EVENT_TYPES)[number];
export type TestEventType = typeof TEST_EVENT_TYPE;
export type SubscriptionAlertEventType = (typeof SUBSCRIPTION_ALERT_EVENT_TYPES)[number];

/** The spec's test event carries a text string. */
export const ZTestEventPayload = z.string();

interface CatalogEntry<T extends EventTopic, P extends z.ZodType> {
  topic: T;
  payload: P;
}

const caseFileEntry: CatalogEntry<"casefile", typeof ZCaseFilePayload> = { topic: "casefile", payload: ZCaseFilePayload };
const signerEntry: CatalogEntry<"signer", typeof ZSignerPayload> = { topic: "signer", payload: ZSignerPayload };

const alertEntry: CatalogEntry<"subscription", typeof ZSubscriptionAlertPayload> = { topic: "subscription", payload: ZSubscriptionAlertPayload };

export const EVENT_CATALOG = {
  ...(Object.fromEntries(CASEFILE_EVENT_TYPES.map((t) => [t, caseFileEntry])) as Record<CaseFileEventType, typeof caseFileEntry>),
  ...(Object.fromEntries(SIGNER_EVENT_TYPES.map((t) => [t, signerEntry])) as Record<SignerEventType, typeof signerEntry>),
  [TEST_EVENT_TYPE]: { topic: "subscription", payload: ZTestEventPayload } as CatalogEntry<"subscription", typeof ZTestEventPayload>,
  ...(Object.fromEntries(SUBSCRIPTION_ALERT_EVENT_TYPES.map((t) => [t, alertEntry])) as Record<SubscriptionAlertEventType, typeof alertEntry>),
} satisfies Record<EventType, CatalogEntry<EventTopic, z.ZodType>>;

export type EventPayload<T extends EventType> = z.infer<(typeof EVENT_CATALOG)[T]["payload"]>;

/** An event as the outbox stores it (packages/db's OutboxEvent is this type: emitEvent takes nothing else). */
export interface NewEvent<T extends EventType = EventType> {
  customerId: number;
  topic: (typeof EVENT_CATALOG)[T]["topic"];
  eventType: T;
  payload: EventPayload<T>;
  /** Only for the test event aimed at one subscription. */
  targetSubscriptionId?: string;
  /** Who and from where, for the event log entry the event also is (never in the webhook payload). */
  audit?: LogAudit;
}

interface CaseFileRef {
  id: number;
  customerId: number;
}

/** `{id, status}`: the spec's default case file payload, with the status after the change. */
export function caseFileEvent<T extends CaseFileEventType>(caseFile: CaseFileRef, status: number, eventType: T, audit?: LogAudit): NewEvent<T> {
  return { customerId: caseFile.customerId, topic: "casefile", eventType, payload: { id: caseFile.id, status }, ...(audit ? { audit } : {}) } as NewEvent<T>;
}

/** `{id, caseFile: {id, status}}`: the spec's default signer payload, with the case file's status after the change. */
export function signerEvent<T extends SignerEventType>(
  caseFile: CaseFileRef,
  caseFileStatus: number,
  signerId: number,
  eventType: T,
  audit?: LogAudit,
): NewEvent<T> {
  return {
    customerId: caseFile.customerId,
    topic: "signer",
    eventType,
    payload: { id: signerId, caseFile: { id: caseFile.id, status: caseFileStatus } },
    ...(audit ? { audit } : {}),
  } as NewEvent<T>;
}

/** `webhook.subscription.test` with its text; aimed at one subscription, or (none given) at every one that includes the type. */
export function testEvent(customerId: number, text: string, targetSubscriptionId?: string): NewEvent<TestEventType> {
  return { customerId, topic: "subscription", eventType: TEST_EVENT_TYPE, payload: text, ...(targetSubscriptionId ? { targetSubscriptionId } : {}) };
}

/** `webhook.subscription.failing` / `.disabled`: to the customer's subscriptions that hold the type. */
export function subscriptionAlertEvent<T extends SubscriptionAlertEventType>(customerId: number, eventType: T, payload: EventPayload<T>): NewEvent<T> {
  return { customerId, topic: "subscription", eventType, payload } as NewEvent<T>;
}

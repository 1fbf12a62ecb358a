import { z } from "zod";
import { checkEndpoint, type EndpointPolicy } from "@esign/net-guard";
import { ZEventType } from "@esign/schema";
import { component } from "../contract/components";
import { isoTime } from "../contract/common-schemas";
import { ZCursor } from "./delivery-cursor";

export const SUBSCRIPTIONS_PATH = "/webhook/api/v1/subscriptions";

// z.guid accepts every id PostgreSQL's uuid type accepts; anything else is simply not found.
export const ZResourceId = z.guid();

const MAX_ENDPOINT_LENGTH = 2048;

/** Issue code for a well-formed URL that the endpoint policy refuses (scheme or address). */
export const ENDPOINT_NOT_ALLOWED = "endpoint_not_allowed";

/**
 * The endpoint is checked in two steps: zod for the shape, then the network policy, which may resolve
 * DNS and so is async. The dispatcher checks again on every connection; this check only gives the
 * customer a clear 400 up front instead of a silent run of failed deliveries.
 */
function zEndpoint(policy: EndpointPolicy) {
  return (
    z
      .string()
      .trim()
      .max(MAX_ENDPOINT_LENGTH)
      // abort: a malformed URL is reported once, and the policy check below never sees it.
      .pipe(z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL", abort: true }))
      .superRefine(async (url, issueCtx) => {
        const check = await checkEndpoint(url, policy);
        if (!check.ok) issueCtx.addIssue({ code: "custom", message: check.reason, params: { code: ENDPOINT_NOT_ALLOWED } });
      })
  );
}

// Duplicates are folded rather than refused: subscribing twice to a type means the same as once.
const ZEventTypes = z
  .array(ZEventType)
  .min(1, "must list at least one event type")
  .transform((types) => [...new Set(types)]);

const FIELDS = ["endpoint", "eventTypes", "isActive", "maxPerSecond", "ordered"] as const;

/** Highest throttle a subscription may ask for: above it a limit would not protect any receiver. */
export const MAX_PER_SECOND = 10_000;

// null (or absent at create) = no limit.
const ZMaxPerSecond = z
  .int()
  .min(1)
  .max(MAX_PER_SECOND)
  .nullable()
  .describe("Deliveries per second at most; a burst beyond it is spread out, never dropped. null: no limit");
const ZOrdered = z
  .boolean()
  .describe("Deliver the events of one case file in the order they happened; a failing one holds the later ones of its case file only");

/**
 * Penneo's sdk-net writes entity properties by their C# names (`{"Endpoint": ..., "EventTypes": [...]}`),
 * which Penneo's API takes: the subscription fields are matched without regard to case. A body with
 * both spellings of one field keeps the exact one.
 */
function caseInsensitiveFields(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const [key, value] of Object.entries(input)) {
    const field = FIELDS.find((f) => f.toLowerCase() === key.toLowerCase());
    if (field && field !== key && !(field in input)) out[field] = value;
  }
  return out;
}

/**
 * Unknown properties are ignored, not refused, so that a client may PUT back an object it fetched
 * (customerId, id, secret, timestamps) with one field changed.
 */
export function subscriptionSchemas(policy: EndpointPolicy) {
  const endpoint = zEndpoint(policy);
  // sdk-php and Penneo's Postman collection send `isActive` with a create too.
  const create = component(
    "SubscriptionCreate",
    z.preprocess(
      caseInsensitiveFields,
      z.object({
        eventTypes: ZEventTypes,
        endpoint,
        isActive: z.boolean().default(true),
        maxPerSecond: ZMaxPerSecond.default(null),
        ordered: ZOrdered.default(false),
      }),
    ),
  );
  const update = component(
    "SubscriptionUpdate",
    z.preprocess(
      caseInsensitiveFields,
      z
        .object({
          eventTypes: ZEventTypes.optional(),
          endpoint: endpoint.optional(),
          isActive: z.boolean().optional(),
          maxPerSecond: ZMaxPerSecond.optional(),
          ordered: ZOrdered.optional(),
        })
        .refine((b) => FIELDS.some((field) => b[field] !== undefined), {
          message: `give at least one of ${FIELDS.join(", ")}`,
        }),
    ),
  );
  return { create, update };
}

export type SubscriptionSchemas = ReturnType<typeof subscriptionSchemas>;
export type TSubscriptionCreate = z.infer<SubscriptionSchemas["create"]>;
export type TSubscriptionUpdate = z.infer<SubscriptionSchemas["update"]>;

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export const ZDeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: ZCursor.optional().describe("The nextCursor of the previous page"),
});

export const ZSubscriptionParams = z.object({ id: ZResourceId });
export const ZRedeliverParams = z.object({ id: ZResourceId, eventId: ZResourceId });

// Answers.

export const ZSubscription = component(
  "Subscription",
  z.object({
    customerId: z.int(),
    id: z.uuid(),
    isActive: z.boolean(),
    secret: z.string().describe("Key of the X-Event-Signature HMAC; shown on every read"),
    eventTypes: z.array(ZEventType),
    endpoint: z.string(),
    maxPerSecond: z.int().nullable().describe("Deliveries per second at most; null: no limit"),
    ordered: z.boolean().describe("Events of one case file are delivered in order"),
    previousSecretExpiresAt: isoTime()
      .nullable()
      .describe("During a secret rotation's overlap: until when deliveries are also signed with the previous secret; null otherwise"),
    createdAt: isoTime(),
    updatedAt: isoTime(),
  }),
);
export type SubscriptionView = z.input<typeof ZSubscription>;

export const ZSubscriptionList = component("SubscriptionList", z.object({ items: z.array(ZSubscription) }));

export const ZEventIdAnswer = component("EventIdAnswer", z.object({ eventId: z.uuid() }));

export const ZDeliveryAttempt = z.object({
  id: z.uuid(),
  eventId: z.uuid(),
  attemptNumber: z.int(),
  outcome: z.string(),
  httpStatus: z.int().nullable(),
  cause: z.string(),
  durationMs: z.int(),
  nextAttemptAt: isoTime().nullable(),
  createdAt: isoTime(),
});

export const ZDeliveryPage = component(
  "DeliveryPage",
  z.object({
    data: z.array(ZDeliveryAttempt).describe("Newest first"),
    nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last page"),
  }),
);

/** Longest overlap a rotation may ask for: a week. */
export const MAX_OVERLAP_SECONDS = 7 * 86_400;

export const ZRotateSecretBody = component(
  "RotateSecret",
  z.object({
    overlapSeconds: z
      .int()
      .min(0)
      .max(MAX_OVERLAP_SECONDS)
      .optional()
      .describe("How long the previous secret keeps signing deliveries too (default WEBHOOK_ROTATION_OVERLAP_SECONDS, 24 h); 0 drops it at once"),
  }),
);

export const ZRotatedSecret = component(
  "RotatedSecret",
  z.object({
    id: z.uuid(),
    secret: z.string().describe("The new signing secret"),
    previousSecretExpiresAt: isoTime().nullable().describe("Until when deliveries carry a second v1 made with the previous secret; null for no overlap"),
  }),
);

export const ZRecoverTaskParams = z.object({ id: ZResourceId, taskId: ZResourceId });

export const ZRecoverBody = component(
  "RecoverRequest",
  z
    .object({
      since: z.iso.datetime({ offset: true }).describe("Start of the window (deliveries made at or after it), ISO 8601"),
      until: z.iso.datetime({ offset: true }).optional().describe("End of the window (deliveries made before it); default now"),
      all: z.boolean().default(false).describe("Every delivery of the window, not only those that failed"),
    })
    .refine((b) => b.until === undefined || Date.parse(b.since) < Date.parse(b.until), { message: "must be before until", path: ["since"] }),
);
export type TRecoverBody = z.output<typeof ZRecoverBody>;

export const ZRecoverTask = component(
  "RecoverTask",
  z.object({
    id: z.uuid(),
    subscriptionId: z.uuid(),
    since: isoTime(),
    until: isoTime(),
    all: z.boolean(),
    state: z.enum(["queued", "running", "completed", "cancelled"]).describe("cancelled: the subscription was disabled or deleted before the end"),
    total: z.int().nullable().describe("Deliveries the window held when the task started; null until then"),
    queued: z.int().describe("Deliveries put back on a new ladder so far (each event once, same X-Event-Id)"),
    delivered: z.int().describe("Deliveries of the window that succeeded since the task was created"),
    createdAt: isoTime(),
    finishedAt: isoTime().nullable(),
  }),
);
export type RecoverTaskView = z.input<typeof ZRecoverTask>;

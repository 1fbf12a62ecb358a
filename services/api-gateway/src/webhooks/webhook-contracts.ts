import { MAX_ACTIVE_SUBSCRIPTIONS } from "./active-limit";
import type { AppConfig } from "@esign/config";
import { allowedNetworks } from "@esign/net-guard";
import {
  SUBSCRIPTIONS_PATH,
  subscriptionSchemas,
  ZDeliveriesQuery,
  ZDeliveryPage,
  ZEventIdAnswer,
  ZRecoverBody,
  ZRecoverTask,
  ZRecoverTaskParams,
  ZRedeliverParams,
  ZRotatedSecret,
  ZRotateSecretBody,
  ZSubscription,
  ZSubscriptionList,
  ZSubscriptionParams,
} from "./subscription-schemas";
import { API_AUTH, errors, json, route, TAGS } from "../contract/route";

const byId = `${SUBSCRIPTIONS_PATH}/{id}`;

const common = (extra: Record<number, string> = {}) => errors({ 401: "Missing or invalid token", ...extra });

const endpointRules =
  "`endpoint` must be an absolute http(s) URL; in production https and a public address only (or one in " +
  "WEBHOOK_ALLOWED_PRIVATE_NETWORKS). Unknown event types " +
  "and refused endpoints answer 400 with every failing field.";

/** The endpoint policy (https and public addresses in production) is part of the body schemas. */
export function webhookRoutes(config: Pick<AppConfig, "WEBHOOK_ALLOW_PRIVATE" | "production"> & Partial<Pick<AppConfig, "WEBHOOK_ALLOWED_PRIVATE_NETWORKS">>) {
  const base = { tags: [TAGS.webhooks], security: API_AUTH } as const;
  const schemas = subscriptionSchemas({
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    requireHttps: config.production,
    allowedNetworks: allowedNetworks(config.WEBHOOK_ALLOWED_PRIVATE_NETWORKS ?? []),
  });
  return {
    createSubscription: route({
      ...base,
      method: "post",
      path: SUBSCRIPTIONS_PATH,
      operationId: "createSubscription",
      summary: "Subscribe to events",
      description: `${endpointRules} At most ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions per customer, one per endpoint. \`isActive\` (default true) may be sent too.`,
      request: { body: { schema: schemas.create, mediaTypes: ["application/json"] } },
      responses: {
        201: { description: "The subscription, with its signing secret", content: json(ZSubscription) },
        ...common({ 400: "Invalid event types or endpoint", 409: `Already ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions, or one to this endpoint` }),
      },
    }),
    listSubscriptions: route({
      ...base,
      method: "get",
      path: SUBSCRIPTIONS_PATH,
      operationId: "listSubscriptions",
      summary: "List the subscriptions (with secrets)",
      responses: { 200: { description: '`{"items": [...]}`, oldest first', content: json(ZSubscriptionList) }, ...common() },
    }),
    testAllSubscriptions: route({
      ...base,
      method: "post",
      path: `${SUBSCRIPTIONS_PATH}/test`,
      operationId: "testAllSubscriptions",
      summary: "Send a webhook.subscription.test event to every active subscription that includes it",
      description: "Penneo's account-wide test. No body is needed.",
      responses: { 204: { description: "The event is queued for delivery" }, ...common() },
    }),
    getSubscription: route({
      ...base,
      method: "get",
      path: byId,
      operationId: "getSubscription",
      summary: "Read a subscription",
      request: { params: ZSubscriptionParams },
      responses: { 200: { description: "The subscription", content: json(ZSubscription) }, ...common({ 404: "No such subscription" }) },
    }),
    updateSubscription: route({
      ...base,
      method: "put",
      path: byId,
      operationId: "updateSubscription",
      summary: "Change endpoint, event types or isActive",
      description: `${endpointRules} \`isActive: true\` re-enables a disabled subscription and its deliveries resume. Unknown properties are ignored, so a fetched object can be sent back.`,
      request: { params: ZSubscriptionParams, body: { schema: schemas.update, mediaTypes: ["application/json"] } },
      responses: {
        200: { description: "The changed subscription", content: json(ZSubscription) },
        ...common({
          400: "Invalid fields, or none given",
          404: "No such subscription",
          409: "Re-enabling would exceed the active limit, or the endpoint is another subscription's",
        }),
      },
    }),
    deleteSubscription: route({
      ...base,
      method: "delete",
      path: byId,
      operationId: "deleteSubscription",
      summary: "Delete a subscription",
      request: { params: ZSubscriptionParams },
      responses: { 204: { description: "Deleted; pending deliveries are cancelled" }, ...common({ 404: "No such subscription" }) },
    }),
    testSubscription: route({
      ...base,
      method: "post",
      path: `${byId}/test`,
      operationId: "testSubscription",
      summary: "Send a webhook.subscription.test event to this subscription",
      request: { params: ZSubscriptionParams },
      responses: {
        202: { description: "The event is queued for delivery", content: json(ZEventIdAnswer) },
        ...common({ 404: "No such subscription", 409: "The subscription is disabled" }),
      },
    }),
    listDeliveries: route({
      ...base,
      method: "get",
      path: `${byId}/deliveries`,
      operationId: "listDeliveries",
      summary: "The delivery attempt log, newest first, cursor paged",
      request: { params: ZSubscriptionParams, query: ZDeliveriesQuery },
      responses: {
        200: { description: "One page of attempts", content: json(ZDeliveryPage) },
        ...common({ 400: "Invalid limit or cursor", 404: "No such subscription" }),
      },
    }),
    redeliverEvent: route({
      ...base,
      method: "post",
      path: `${byId}/deliveries/{eventId}/redeliver`,
      operationId: "redeliverEvent",
      summary: "Deliver an event again (same X-Event-Id)",
      description: "During a secret rotation's overlap the redelivery carries both signatures, like any delivery.",
      request: { params: ZRedeliverParams },
      responses: {
        202: { description: "The redelivery is queued", content: json(ZEventIdAnswer) },
        ...common({ 404: "No such subscription, or no delivery of that event to it", 409: "The subscription is disabled" }),
      },
    }),
    rotateSecret: route({
      ...base,
      method: "post",
      path: `${byId}/rotate-secret`,
      operationId: "rotateSubscriptionSecret",
      summary: "Rotate the signing secret, keeping the old one for an overlap",
      description:
        "Answers the new secret. For `overlapSeconds` (default 24 h, `WEBHOOK_ROTATION_OVERLAP_SECONDS`) every delivery carries two " +
        "`v1=` entries in `X-Event-Signature`, the previous secret's first, then the new one's: a receiver verifying with either passes. " +
        "After the overlap, or once revoked, only the new one. Rotating again during an overlap keeps only the secret it replaces.",
      request: { params: ZSubscriptionParams, body: { schema: ZRotateSecretBody, mediaTypes: ["application/json"], required: false } },
      responses: {
        200: { description: "The new secret", content: json(ZRotatedSecret) },
        ...common({ 400: "Invalid overlapSeconds", 404: "No such subscription" }),
      },
    }),
    revokePreviousSecret: route({
      ...base,
      method: "delete",
      path: `${byId}/previous-secret`,
      operationId: "revokePreviousSubscriptionSecret",
      summary: "End a rotation's overlap now: sign with the new secret only",
      request: { params: ZSubscriptionParams },
      responses: { 204: { description: "Deliveries are signed with the current secret only" }, ...common({ 404: "No such subscription" }) },
    }),
    recoverDeliveries: route({
      ...base,
      method: "post",
      path: `${byId}/recover`,
      operationId: "recoverDeliveries",
      summary: "Deliver again every event whose delivery failed (or all, on request) in a time window",
      description:
        "Starts a tracked task: the deliveries made in [since, until) that failed (`all: true`: every one) are put back on a new " +
        "ladder in batches, each event once and with its X-Event-Id. Read its progress at `recover-tasks/{taskId}`.",
      request: { params: ZSubscriptionParams, body: { schema: ZRecoverBody, mediaTypes: ["application/json"] } },
      responses: {
        202: { description: "The task, queued", content: json(ZRecoverTask) },
        ...common({ 400: "Invalid window", 404: "No such subscription", 409: "The subscription is disabled" }),
      },
    }),
    getRecoverTask: route({
      ...base,
      method: "get",
      path: `${byId}/recover-tasks/{taskId}`,
      operationId: "getRecoverTask",
      summary: "Progress of a recover task",
      request: { params: ZRecoverTaskParams },
      responses: { 200: { description: "The task", content: json(ZRecoverTask) }, ...common({ 404: "No such subscription or task" }) },
    }),
  };
}

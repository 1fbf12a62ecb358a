import { z } from "zod";
import type { Api } from "./api";
import type { EventTypeName } from "./event-types";
import {
  ZDeliveryPage,
  ZEventIdAnswer,
  ZRecoverTask,
  ZRotatedSecret,
  ZSubscription,
  type DeliveryAttempt,
  type DeliveryPage,
  type RecoverTask,
  type RotatedSecret,
  type Subscription,
} from "./schemas";

export const SUBSCRIPTIONS_PATH = "/webhook/api/v1/subscriptions";

export interface SubscriptionCreate {
  eventTypes: EventTypeName[];
  /** https and public in production; development gateways may allow http and loopback. */
  endpoint: string;
  /** Default true. */
  isActive?: boolean;
  /** Deliveries per second at most (1 to 10,000); default null, no limit. */
  maxPerSecond?: number | null;
  /** Deliver the events of one case file in order; default false. */
  ordered?: boolean;
}

/** Any of these; `isActive: true` re-enables a disabled subscription and its deliveries resume. */
export interface SubscriptionUpdate {
  eventTypes?: EventTypeName[];
  endpoint?: string;
  isActive?: boolean;
  /** null removes the limit. */
  maxPerSecond?: number | null;
  ordered?: boolean;
}

/** The window of a recover: deliveries made at or after `since` and before `until` (default now). */
export interface RecoverWindow {
  since: Date | string;
  until?: Date | string;
  /** Every delivery of the window, not only the failed ones. */
  all?: boolean;
}

const isoOf = (t: Date | string) => (typeof t === "string" ? t : t.toISOString());

export interface DeliveriesQuery {
  /** 1 to 100; server default 50. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

const byId = (id: string) => `${SUBSCRIPTIONS_PATH}/${encodeURIComponent(id)}`;

/** The webhook subscription API; every call is scoped to the client's customer. */
export class Subscriptions {
  constructor(private readonly api: Api) {}

  /** 201; a sixth active subscription or a second one to the same endpoint is 409, an unknown event type or a refused endpoint 400. */
  create(input: SubscriptionCreate): Promise<Subscription> {
    return this.api.json({ method: "POST", path: SUBSCRIPTIONS_PATH, auth: "webhook", json: input }, ZSubscription);
  }

  /** All subscriptions of the customer that are not deleted, with their secrets. */
  async list(): Promise<Subscription[]> {
    const list = await this.api.json({ method: "GET", path: SUBSCRIPTIONS_PATH, auth: "webhook" }, z.object({ items: z.array(ZSubscription) }));
    return list.items;
  }

  get(id: string): Promise<Subscription> {
    return this.api.json({ method: "GET", path: byId(id), auth: "webhook" }, ZSubscription);
  }

  update(id: string, patch: SubscriptionUpdate): Promise<Subscription> {
    return this.api.json({ method: "PUT", path: byId(id), auth: "webhook", json: patch }, ZSubscription);
  }

  /** 204; deliveries still open for it are cancelled. */
  delete(id: string): Promise<void> {
    return this.api.empty({ method: "DELETE", path: byId(id), auth: "webhook" });
  }

  /** Queues a `webhook.subscription.test` event for every active subscription that includes that type (204). */
  sendTestToAll(): Promise<void> {
    return this.api.empty({ method: "POST", path: `${SUBSCRIPTIONS_PATH}/test`, auth: "webhook" });
  }

  /** Queues a `webhook.subscription.test` delivery to this subscription (202). */
  sendTest(id: string): Promise<{ eventId: string }> {
    return this.api.json({ method: "POST", path: `${byId(id)}/test`, auth: "webhook" }, ZEventIdAnswer);
  }

  /** One page of the attempt log, newest first. */
  deliveries(id: string, query: DeliveriesQuery = {}): Promise<DeliveryPage> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set("limit", String(query.limit));
    if (query.cursor !== undefined) params.set("cursor", query.cursor);
    const qs = params.size > 0 ? `?${params.toString()}` : "";
    return this.api.json({ method: "GET", path: `${byId(id)}/deliveries${qs}`, auth: "webhook" }, ZDeliveryPage);
  }

  /** Every page of the attempt log, following `nextCursor` until the last one. */
  async *deliveryPages(id: string, options: { limit?: number } = {}): AsyncGenerator<DeliveryPage, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.deliveries(id, { ...options, ...(cursor !== undefined ? { cursor } : {}) });
      yield page;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** Every attempt of the log, newest first, fetched page by page as the loop advances. */
  async *iterateDeliveries(id: string, options: { limit?: number } = {}): AsyncGenerator<DeliveryAttempt, void, undefined> {
    for await (const page of this.deliveryPages(id, options)) yield* page.data;
  }

  /** Queues the event again for this subscription (202); it keeps its X-Event-Id. */
  redeliver(id: string, eventId: string): Promise<{ eventId: string }> {
    return this.api.json({ method: "POST", path: `${byId(id)}/deliveries/${encodeURIComponent(eventId)}/redeliver`, auth: "webhook" }, ZEventIdAnswer);
  }

  /**
   * New signing secret, answered once. For `overlapSeconds` (server default 24 h) deliveries carry a
   * second `v1=` made with the previous secret, so receivers verifying with either pass.
   */
  rotateSecret(id: string, options: { overlapSeconds?: number } = {}): Promise<RotatedSecret> {
    return this.api.json({ method: "POST", path: `${byId(id)}/rotate-secret`, auth: "webhook", json: options }, ZRotatedSecret);
  }

  /** Ends a rotation's overlap now (204): deliveries carry the current secret's signature only. */
  revokePreviousSecret(id: string): Promise<void> {
    return this.api.empty({ method: "DELETE", path: `${byId(id)}/previous-secret`, auth: "webhook" });
  }

  /**
   * Delivers again every event of the window whose delivery failed (or all), each once with its
   * X-Event-Id, as a task (202) whose progress `recoverTask` reads.
   */
  recover(id: string, window: RecoverWindow): Promise<RecoverTask> {
    const json = { since: isoOf(window.since), ...(window.until !== undefined ? { until: isoOf(window.until) } : {}), ...(window.all ? { all: true } : {}) };
    return this.api.json({ method: "POST", path: `${byId(id)}/recover`, auth: "webhook", json }, ZRecoverTask);
  }

  /** A recover task's progress: state, total, queued, delivered. */
  recoverTask(id: string, taskId: string): Promise<RecoverTask> {
    return this.api.json({ method: "GET", path: `${byId(id)}/recover-tasks/${encodeURIComponent(taskId)}`, auth: "webhook" }, ZRecoverTask);
  }
}

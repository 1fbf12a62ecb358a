import { sqlPool, type Db, type Prisma } from "@esign/db";
import type { DispatcherContext } from "../context";
import { Coalescer } from "./coalesce";

/** Everything an attempt needs: the delivery, its subscription and its event. */
export interface AttemptRow {
  deliveryId: string;
  eventId: string;
  state: string;
  attempts: number;
  ladderStep: number;
  nextAttemptAt: Date | null;
  subscriptionId: string;
  endpoint: string;
  secretEnc: string;
  isActive: boolean;
  deletedAt: Date | null;
  /** null when the event row is gone. */
  eventRowId: string | null;
  topic: string;
  eventType: string;
  payload: Prisma.JsonValue;
  occurredAt: Date;
}

/*
 * One statement on Prisma's own pool: through Prisma these were three queries costing ~4 ms of CPU
 * per delivery (bench/README.md).
 */
const ATTEMPT_COLUMNS = `
  d.id AS "deliveryId", d."eventId", d.state, d.attempts, d."ladderStep", d."nextAttemptAt",
  s.id AS "subscriptionId", s.endpoint, s."secretEnc", s."isActive", s."deletedAt",
  e.id AS "eventRowId", e.topic, e."eventType", e.payload, e."occurredAt"`;

const loaders = new WeakMap<Db, Coalescer<string, AttemptRow | undefined>>();

/** One delivery's attempt row; the loads of one event-loop turn (concurrent retries) share one statement. */
export function loadAttempt(ctx: DispatcherContext, deliveryId: string): Promise<AttemptRow | undefined> {
  let loader = loaders.get(ctx.db);
  if (!loader) {
    loader = new Coalescer((ids) => loadAttempts(ctx.db, ids));
    loaders.set(ctx.db, loader);
  }
  return loader.call(deliveryId);
}

async function loadAttempts(db: Db, deliveryIds: readonly string[]): Promise<(AttemptRow | undefined)[]> {
  const { rows } = await sqlPool(db).query<AttemptRow>(
    `SELECT ${ATTEMPT_COLUMNS}
       FROM "WebhookDelivery" d
       JOIN "WebhookSubscription" s ON s.id = d."subscriptionId"
       LEFT JOIN "Event" e ON e.id = d."eventId"
      WHERE d.id = ANY($1::uuid[])`,
    [deliveryIds],
  );
  const byId = new Map(rows.map((r) => [r.deliveryId, r]));
  return deliveryIds.map((id) => byId.get(id));
}

/**
 * When subscription `s` gets event `e` (SQL over the aliases s and e): one of the customer's active,
 * undeleted subscriptions holding the event type - events of every user of the account - or, for a
 * test event, only its target. The fan-out inserts by it; the relay asks it before dispatching.
 */
export const SUBSCRIPTION_MATCHES_EVENT = `
  s."customerId" = e."customerId" AND s."isActive" AND s."deletedAt" IS NULL
  AND CASE WHEN e."targetSubscriptionId" IS NOT NULL THEN s.id = e."targetSubscriptionId"
           ELSE s."eventTypes" @> ARRAY[e."eventType"] END`;

export interface FannedOutEvent {
  eventType: string;
  /** The event's pending deliveries, new and earlier ones, oldest first. */
  pending: AttemptRow[];
}

/**
 * Fans an event out and reads back what its attempts need, in one statement: every subscription
 * matching it (SUBSCRIPTION_MATCHES_EVENT) gets a delivery (the unique (eventId, subscriptionId)
 * keeps one on a second run); the new rows come from the INSERT, the ones an earlier run made from the table (a
 * statement does not see its own inserts). undefined when the event row is gone.
 */
export async function fanOutAndLoad(ctx: DispatcherContext, eventId: string, pendingState: string, now: Date): Promise<FannedOutEvent | undefined> {
  const { rows } = await sqlPool(ctx.db).query<AttemptRow | (Partial<AttemptRow> & { eventType: string; deliveryId: null })>(
    `WITH e AS (
       SELECT id, "customerId", topic, "eventType", payload, "occurredAt", "targetSubscriptionId" FROM "Event" WHERE id = $1),
     matching AS (
       SELECT s.id FROM "WebhookSubscription" s JOIN e ON ${SUBSCRIPTION_MATCHES_EVENT}),
     created AS (
       INSERT INTO "WebhookDelivery" (id, "eventId", "subscriptionId", state, "nextAttemptAt", "createdAt", "updatedAt")
       SELECT gen_random_uuid(), $1::uuid, matching.id, $2::text, $3::timestamptz, $3::timestamptz, $3::timestamptz FROM matching
       ON CONFLICT ("eventId", "subscriptionId") DO NOTHING
       RETURNING id, "eventId", state, attempts, "ladderStep", "nextAttemptAt", "subscriptionId", "createdAt"),
     d AS (
       SELECT * FROM created
       UNION ALL
       SELECT id, "eventId", state, attempts, "ladderStep", "nextAttemptAt", "subscriptionId", "createdAt"
         FROM "WebhookDelivery" WHERE "eventId" = $1 AND state = $2)
     SELECT ${ATTEMPT_COLUMNS}
       FROM e
       LEFT JOIN d ON true
       LEFT JOIN "WebhookSubscription" s ON s.id = d."subscriptionId"
      ORDER BY d."createdAt", d.id`,
    [eventId, pendingState, now],
  );
  const first = rows[0];
  if (!first) return undefined;
  return { eventType: first.eventType, pending: rows.filter((r): r is AttemptRow => r.deliveryId !== null) };
}

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
  e.id AS "eventRowId", e."eventType", e.payload, e."occurredAt"`;

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

const isDeliveryRow = <R extends { deliveryId: string | null }>(row: R): row is R & AttemptRow => row.deliveryId !== null;

export interface FannedOutEvent {
  eventType: string;
  /** The event's pending deliveries, new and earlier ones, oldest first. */
  pending: AttemptRow[];
}

/**
 * Fans events out and reads back what their attempts need, in one statement: every subscription
 * matching an event (SUBSCRIPTION_MATCHES_EVENT) gets a delivery (the unique (eventId,
 * subscriptionId) keeps one on a second run); the new rows come from the INSERT, the ones an earlier
 * run made from the table (a statement does not see its own inserts). Keyed by event id, in the
 * events' outbox order; an event whose row is gone is absent.
 */
export async function fanOutAndLoad(ctx: DispatcherContext, eventIds: readonly string[], pendingState: string, now: Date): Promise<Map<string, FannedOutEvent>> {
  const { rows } = await sqlPool(ctx.db).query<(AttemptRow | (Partial<AttemptRow> & { deliveryId: null })) & { eventRowId: string; eventType: string }>(
    `WITH e AS (
       SELECT id, seq, "customerId", topic, "eventType", payload, "occurredAt", "targetSubscriptionId" FROM "Event" WHERE id = ANY($1::uuid[])),
     matching AS (
       SELECT e.id AS event_id, s.id AS subscription_id FROM "WebhookSubscription" s JOIN e ON ${SUBSCRIPTION_MATCHES_EVENT}),
     created AS (
       -- In key order: two overlapping batches (a drain re-run after a crash) then wait for each
       -- other on the unique index instead of deadlocking.
       INSERT INTO "WebhookDelivery" (id, "eventId", "subscriptionId", state, "nextAttemptAt", "createdAt", "updatedAt")
       SELECT gen_random_uuid(), m.event_id, m.subscription_id, $2::text, $3::timestamptz, $3::timestamptz, $3::timestamptz
         FROM matching m ORDER BY m.event_id, m.subscription_id
       ON CONFLICT ("eventId", "subscriptionId") DO NOTHING
       RETURNING id, "eventId", state, attempts, "ladderStep", "nextAttemptAt", "subscriptionId", "createdAt"),
     d AS (
       SELECT * FROM created
       UNION ALL
       SELECT id, "eventId", state, attempts, "ladderStep", "nextAttemptAt", "subscriptionId", "createdAt"
         FROM "WebhookDelivery" WHERE "eventId" = ANY($1::uuid[]) AND state = $2)
     SELECT ${ATTEMPT_COLUMNS}
       FROM e
       LEFT JOIN d ON d."eventId" = e.id
       LEFT JOIN "WebhookSubscription" s ON s.id = d."subscriptionId"
      ORDER BY e.seq, d."createdAt", d.id`,
    [eventIds, pendingState, now],
  );
  const events = new Map<string, FannedOutEvent>();
  for (const row of rows) {
    let event = events.get(row.eventRowId);
    if (!event) {
      event = { eventType: row.eventType, pending: [] };
      events.set(row.eventRowId, event);
    }
    if (isDeliveryRow(row)) event.pending.push(row);
  }
  return events;
}

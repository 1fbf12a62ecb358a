import { keyList, run, sqlPool, type Db, type Prisma } from "@esign/db";
import type { DispatcherContext } from "../context";
import { Coalescer } from "./coalesce";
import { fanOutAndLoadSql, loadAttemptsSql } from "./attempt-rows.sql";

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
  /** The secret before the last rotation, still signed with until previousSecretExpiresAt. */
  previousSecretEnc: string | null;
  previousSecretExpiresAt: Date | null;
  /** Throttle: deliveries per second at most; null = no limit. */
  maxPerSecond: number | null;
  /** Ordered per case file (opt-in). */
  ordered: boolean;
  /** The event's case file, for ordering; null for events about none. */
  caseFileId: number | null;
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
  const rows = (await run(sqlPool(db), loadAttemptsSql, { deliveryIds })) as AttemptRow[];
  const byId = new Map(rows.map((r) => [r.deliveryId, r]));
  return deliveryIds.map((id) => byId.get(id));
}

const isDeliveryRow = <R extends { deliveryId: string | null }>(row: R): row is R & AttemptRow => row.deliveryId !== null;

export interface FannedOutEvent {
  eventType: string;
  /** The event's pending deliveries, new and earlier ones, oldest first. */
  pending: AttemptRow[];
}

/**
 * Fans events out and reads back what their attempts need, in one statement: every subscription
 * matching an event (subscriptionMatchesEvent of @esign/webhooks) gets a delivery (the unique (eventId,
 * subscriptionId) keeps one on a second run); the new rows come from the INSERT, the ones an earlier
 * run made from the table (a statement does not see its own inserts). Keyed by event id, in the
 * events' outbox order; an event whose row is gone is absent.
 */
export async function fanOutAndLoad(
  ctx: DispatcherContext,
  eventIds: readonly string[],
  pendingState: string,
  now: Date,
): Promise<Map<string, FannedOutEvent>> {
  const rows = (await run(sqlPool(ctx.db), fanOutAndLoadSql, { events: keyList(eventIds), pendingState, now })) as ((
    | AttemptRow
    | (Partial<AttemptRow> & { deliveryId: null })
  ) & { eventRowId: string; eventType: string })[];
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

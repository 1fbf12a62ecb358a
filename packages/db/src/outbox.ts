import { randomUUID } from "node:crypto";
import type { Prisma } from "./generated/client";
import type { Tx } from "./create-prisma";
import { SqlParams } from "./sql-params";

/** The channel the outbox relay LISTENs on; PostgreSQL delivers the notification at commit. */
export const OUTBOX_CHANNEL = "esign_outbox";

export interface OutboxEvent {
  customerId: number;
  topic: "casefile" | "signer" | "subscription";
  eventType: string;
  payload: Prisma.InputJsonValue;
  /** Only for events aimed at one subscription (the test event). */
  targetSubscriptionId?: string;
}

/**
 * Writes an event into the outbox. Call it with the transaction that makes the state change, so the
 * event exists if and only if the change committed; the relay publishes it afterwards. The NOTIFY
 * only wakes the relay early: a missed one costs latency, never the event.
 */
export async function insertEvent(tx: Tx, event: OutboxEvent): Promise<string> {
  const [id] = await insertEvents(tx, [event]);
  return id!;
}

/**
 * Writes several events of one transaction in one statement, with one NOTIFY (PostgreSQL folds
 * identical notifications of a transaction into one anyway). Their seq follows the array's order.
 * Through Prisma this was a create plus a raw NOTIFY per event (~2-4 ms of CPU each).
 */
export async function insertEvents(tx: Tx, events: readonly OutboxEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const p = new SqlParams();
  const { sql, ids } = eventInsertSql(events, p);
  await tx.$executeRawUnsafe(`WITH inserted AS (${sql}) ${notifyIfAnySql("inserted")}`, ...p.values);
  return ids;
}

/**
 * The INSERT of `events` (ending in RETURNING id), for a data-modifying CTE of a larger statement;
 * its values go to `p`; with `onlyIf` (an SQL condition) the events are written only when it holds. The statement must also NOTIFY (`notifyIfAnySql`) for the relay to wake early.
 * WITH ORDINALITY + ORDER BY: seq (BIGSERIAL) is drawn in the order the rows are inserted.
 * occurredAt is the time of this statement (clock_timestamp), not the column default's start of
 * the transaction: the notifier's transaction spans an SMTP conversation before its event.
 */
export function eventInsertSql(events: readonly OutboxEvent[], p: SqlParams, onlyIf?: string): { sql: string; ids: string[] } {
  const ids = events.map(() => randomUUID());
  const sql = `
    INSERT INTO "Event" (id, "customerId", topic, "eventType", payload, "targetSubscriptionId", "occurredAt")
    SELECT id, customer_id, topic, event_type, payload, target_subscription_id, clock_timestamp()
    FROM unnest(${p.add(ids, "uuid[]")}, ${p.add(events.map((e) => e.customerId), "int[]")}, ${p.add(events.map((e) => e.topic), "text[]")},
                ${p.add(events.map((e) => e.eventType), "text[]")}, ${p.add(events.map((e) => JSON.stringify(e.payload)), "jsonb[]")},
                ${p.add(events.map((e) => e.targetSubscriptionId ?? null), "uuid[]")})
      WITH ORDINALITY AS t(id, customer_id, topic, event_type, payload, target_subscription_id, n)
    ${onlyIf ? `WHERE ${onlyIf}` : ""}
    ORDER BY n
    RETURNING id`;
  return { sql, ids };
}

/** The closing SELECT of a statement whose CTE `cte` inserted events: one NOTIFY when it inserted any. */
export function notifyIfAnySql(cte: string): string {
  return `SELECT pg_notify('${OUTBOX_CHANNEL}', '') WHERE EXISTS (SELECT 1 FROM ${cte})`;
}

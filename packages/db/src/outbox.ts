import { randomUUID } from "node:crypto";
import type { Prisma } from "./generated/client";
import type { Tx } from "./create-prisma";

/** The channel the outbox relay LISTENs on; PostgreSQL delivers the notification at commit. */
export const OUTBOX_CHANNEL = "esign_outbox";

export interface OutboxEvent {
  customerId: number;
  topic: "casefile" | "signer" | "webhook";
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
  const ids = events.map(() => randomUUID());
  // WITH ORDINALITY + ORDER BY: seq (BIGSERIAL) is drawn in the order the rows are inserted.
  // occurredAt is the time of this statement (clock_timestamp), not the column default's start of
  // the transaction: the notifier's transaction spans an SMTP conversation before its event.
  await tx.$executeRaw`
    WITH input AS (
      SELECT * FROM unnest(${ids}::uuid[], ${events.map((e) => e.customerId)}::int[], ${events.map((e) => e.topic)}::text[],
                           ${events.map((e) => e.eventType)}::text[], ${events.map((e) => JSON.stringify(e.payload))}::jsonb[],
                           ${events.map((e) => e.targetSubscriptionId ?? null)}::uuid[])
        WITH ORDINALITY AS t(id, customer_id, topic, event_type, payload, target_subscription_id, n)),
    inserted AS (
      INSERT INTO "Event" (id, "customerId", topic, "eventType", payload, "targetSubscriptionId", "occurredAt")
      SELECT id, customer_id, topic, event_type, payload, target_subscription_id, clock_timestamp() FROM input ORDER BY n
      RETURNING id)
    SELECT pg_notify(${OUTBOX_CHANNEL}, '') WHERE EXISTS (SELECT 1 FROM inserted)`;
  return ids;
}

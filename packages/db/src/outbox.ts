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
  const id = randomUUID();
  await tx.event.create({ data: { id, ...event } });
  await tx.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`;
  return id;
}

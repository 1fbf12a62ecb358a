import { randomUUID } from "node:crypto";
import type { Prisma } from "./generated/client";
import type { Tx } from "./create-prisma";

export interface OutboxEvent {
  customerId: number;
  topic: "casefile" | "signer" | "webhook";
  eventType: string;
  payload: Prisma.InputJsonValue;
}

/**
 * Writes an event into the outbox. Call it with the transaction that makes the state change, so the
 * event exists if and only if the change committed; the relay publishes it afterwards.
 */
export async function insertEvent(tx: Tx, event: OutboxEvent): Promise<string> {
  const id = randomUUID();
  await tx.event.create({ data: { id, ...event } });
  return id;
}

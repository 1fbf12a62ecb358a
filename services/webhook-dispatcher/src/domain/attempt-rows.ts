import { sqlPool, type Prisma } from "@esign/db";
import type { DispatcherContext } from "../context";

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
const SELECT_ATTEMPTS = `
  SELECT d.id AS "deliveryId", d."eventId", d.state, d.attempts, d."ladderStep", d."nextAttemptAt",
         s.id AS "subscriptionId", s.endpoint, s."secretEnc", s."isActive", s."deletedAt",
         e.id AS "eventRowId", e.topic, e."eventType", e.payload, e."occurredAt"
    FROM "WebhookDelivery" d
    JOIN "WebhookSubscription" s ON s.id = d."subscriptionId"
    LEFT JOIN "Event" e ON e.id = d."eventId"`;

export async function loadAttempt(ctx: DispatcherContext, deliveryId: string): Promise<AttemptRow | undefined> {
  const { rows } = await sqlPool(ctx.db).query<AttemptRow>(`${SELECT_ATTEMPTS} WHERE d.id = $1`, [deliveryId]);
  return rows[0];
}

/** The event's deliveries that are still pending, oldest subscription first (a stable order for the logs). */
export async function loadPendingAttemptsOfEvent(ctx: DispatcherContext, eventId: string, pendingState: string): Promise<AttemptRow[]> {
  const { rows } = await sqlPool(ctx.db).query<AttemptRow>(`${SELECT_ATTEMPTS} WHERE d."eventId" = $1 AND d.state = $2 ORDER BY d."createdAt", d.id`, [
    eventId,
    pendingState,
  ]);
  return rows;
}

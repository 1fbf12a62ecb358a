import { Router, type RequestHandler } from "express";
import { z } from "zod";
import { run, runOne, type Db } from "@esign/db";
import { AppError } from "@esign/errors";
import { requestRedelivery } from "@esign/webhooks";
import type { GatewayContext } from "../context";
import { principalOf } from "../auth/authenticate";
import { encodeCursor, type AttemptPosition } from "./delivery-cursor";
import { ownedSubscription, requireActive } from "./owned-subscription";
import type { webhookRoutes } from "./webhook-contracts";
import { serve } from "../contract/serve";
import { attemptPageSql, deliveryOfEventSql } from "./deliveries.sql";

// Read through typed SQL for createdAt at full microsecond precision (the cursor); rows are re-checked here.
const ZAttemptRow = z.object({
  id: z.string(),
  eventId: z.string(),
  attemptNumber: z.number().int(),
  outcome: z.string(),
  httpStatus: z.number().int().nullable(),
  cause: z.string(),
  durationMs: z.number().int(),
  nextAttemptAt: z.date().nullable(),
  createdAt: z.date(),
  position: z.string(),
});
type AttemptRow = z.infer<typeof ZAttemptRow>;

/** Newest first; ties on createdAt go by id ascending, the order of the (subscriptionId, createdAt DESC, id) index. */
async function attemptPage(db: Db, subscriptionId: string, limit: number, after: AttemptPosition | undefined): Promise<AttemptRow[]> {
  const rows = await run(db, attemptPageSql, { subscriptionId, limit, after });
  return z.array(ZAttemptRow).parse(rows);
}

const presentAttempt = (a: AttemptRow) => ({
  id: a.id,
  eventId: a.eventId,
  attemptNumber: a.attemptNumber,
  outcome: a.outcome,
  httpStatus: a.httpStatus,
  cause: a.cause,
  durationMs: a.durationMs,
  nextAttemptAt: a.nextAttemptAt?.toISOString() ?? null,
  createdAt: a.createdAt.toISOString(),
});

/** The attempt log of one subscription and manual redelivery of one of its events. */
export function deliveriesRouter(ctx: GatewayContext, auth: RequestHandler, routes: ReturnType<typeof webhookRoutes>): Router {
  const router = Router();

  serve(router, routes.listDeliveries, auth, async ({ params, query }, _req, res) => {
    const sub = await ownedSubscription(ctx.db, principalOf(res).customerId, params.id);
    // One row more than asked tells whether another page exists without a count query.
    const rows = await attemptPage(ctx.db, sub.id, query.limit + 1, query.cursor);
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    const nextCursor = rows.length > query.limit && last ? encodeCursor({ createdAt: last.position, id: last.id }) : null;
    res.json({ data: page.map(presentAttempt), nextCursor });
  });

  serve(router, routes.redeliverEvent, auth, async ({ params: { id, eventId } }, _req, res) => {
    const sub = await ownedSubscription(ctx.db, principalOf(res).customerId, id);
    const notDelivered = () => new AppError("not_found", "This subscription has no delivery of that event");
    const delivery = await runOne(ctx.db, deliveryOfEventSql, { subscriptionId: sub.id, eventId });
    if (!delivery) throw notDelivered();
    requireActive(sub, "requesting a redelivery");
    if (!(await requestRedelivery(ctx.db, ctx.producer, sub.id, eventId))) throw notDelivered();
    res.status(202).json({ eventId });
  });
  return router;
}

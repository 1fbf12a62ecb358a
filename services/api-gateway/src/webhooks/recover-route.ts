import { randomUUID } from "node:crypto";
import { Router, type RequestHandler } from "express";
import type { Db, WebhookRecoverTask } from "@esign/db";
import { AppError } from "@esign/errors";
import { DELIVERY_STATE, enqueueRecoverTask, type RecoverState } from "@esign/webhooks";
import type { GatewayContext } from "../context";
import { principalOf } from "../auth/authenticate";
import { requestIdOf } from "../http/request-context";
import { serve } from "../contract/serve";
import { ownedSubscription, requireActive } from "./owned-subscription";
import type { RecoverTaskView } from "./subscription-schemas";
import type { webhookRoutes } from "./webhook-contracts";

/** Of the task's window, the deliveries that succeeded since the task was made: what it has achieved so far. */
async function presentTask(db: Db, task: WebhookRecoverTask): Promise<RecoverTaskView> {
  const delivered = await db.webhookDelivery.count({
    where: {
      subscriptionId: task.subscriptionId,
      createdAt: { gte: task.since, lt: task.until },
      state: DELIVERY_STATE.succeeded,
      lastAttemptAt: { gte: task.createdAt },
    },
  });
  return {
    id: task.id,
    subscriptionId: task.subscriptionId,
    since: task.since.toISOString(),
    until: task.until.toISOString(),
    all: task.includeAll,
    // Written by the dispatcher from RECOVER_STATE only.
    state: task.state as RecoverState,
    total: task.total,
    queued: task.queued,
    delivered,
    createdAt: task.createdAt.toISOString(),
    finishedAt: task.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Recover: a durable task (a row, then a webhooks/recover job the dispatcher runs in batches), so a
 * window of thousands of events is one call, survives restarts and can be watched.
 */
export function recoverRouter(ctx: GatewayContext, auth: RequestHandler, routes: ReturnType<typeof webhookRoutes>): Router {
  const router = Router();

  serve(router, routes.recoverDeliveries, auth, async ({ params, body }, _req, res) => {
    const actor = principalOf(res);
    const sub = await ownedSubscription(ctx.db, actor.customerId, params.id);
    requireActive(sub, "recovering deliveries");
    const task = await ctx.db.webhookRecoverTask.create({
      data: {
        id: randomUUID(),
        subscriptionId: sub.id,
        customerId: actor.customerId,
        since: new Date(body.since),
        until: body.until === undefined ? new Date() : new Date(body.until),
        includeAll: body.all,
      },
    });
    // After the commit; if Redis is away the dispatcher's sweeper enqueues it.
    await enqueueRecoverTask(ctx.producer, task.id);
    ctx.logger.info("webhook recover task created", { requestId: requestIdOf(res), subscriptionId: sub.id, recoverTaskId: task.id });
    res.status(202).json(await presentTask(ctx.db, task));
  });

  serve(router, routes.getRecoverTask, auth, async ({ params }, _req, res) => {
    const sub = await ownedSubscription(ctx.db, principalOf(res).customerId, params.id);
    const task = await ctx.db.webhookRecoverTask.findFirst({ where: { id: params.taskId, subscriptionId: sub.id } });
    if (!task) throw new AppError("not_found", "Recover task not found");
    res.json(await presentTask(ctx.db, task));
  });
  return router;
}

import { Router } from "express";
import { cancelSubscriptionDeliveries, createAccountTestEvent, createTestEvent, resumeSubscription, SubscriptionNotFoundError } from "@esign/webhooks";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { requestIdOf } from "../http/request-context";
import { deliveriesRouter } from "./deliveries-route";
import { recoverRouter } from "./recover-route";
import { secretRotationRouter } from "./secret-rotation-route";
import { ownedSubscription, requireActive, subscriptionNotFound } from "./owned-subscription";
import { presentSubscription } from "./present-subscription";
import { createSubscription, softDeleteSubscription, updateSubscription } from "./subscription-changes";
import { webhookRoutes } from "./webhook-contracts";
import { serve } from "../contract/serve";

/** The webhook subscription API of the contract; every route is scoped to the caller's customer. */
export function webhookSubscriptionRouter(ctx: GatewayContext): Router {
  const router = Router();
  // Webhooks configure the customer: administrators only (a member gets 403).
  const auth = authenticate(ctx, { admin: true });
  const key = ctx.config.ENCRYPTION_KEYRING;
  const routes = webhookRoutes(ctx.config);

  serve(router, routes.createSubscription, auth, async ({ body: input }, _req, res) => {
    const actor = principalOf(res);
    const { sub } = await createSubscription(ctx.db, actor, input, key);
    ctx.logger.info("webhook subscription created", { requestId: requestIdOf(res), subscriptionId: sub.id, customerId: actor.customerId });
    res.status(201).json(presentSubscription(sub, key));
  });

  serve(router, routes.listSubscriptions, auth, async (_input, _req, res) => {
    const subs = await ctx.db.webhookSubscription.findMany({
      where: { customerId: principalOf(res).customerId, deletedAt: null },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    // `{"items": [...]}`: what Penneo's Postman collection checks and its SDKs read.
    res.json({ items: subs.map((s) => presentSubscription(s, key)) });
  });

  // Penneo's account-wide test, before `/:id` routes: fires `webhook.subscription.test` to every
  // active subscription of the customer that includes it, and answers 204 as the collection expects.
  serve(router, routes.testAllSubscriptions, auth, async (_input, _req, res) => {
    const actor = principalOf(res);
    const eventId = await createAccountTestEvent(ctx.db, actor.customerId);
    ctx.logger.info("webhook test event for the account", { requestId: requestIdOf(res), customerId: actor.customerId, eventId });
    res.status(204).end();
  });

  serve(router, routes.getSubscription, auth, async ({ params }, _req, res) => {
    res.json(presentSubscription(await ownedSubscription(ctx.db, principalOf(res).customerId, params.id), key));
  });

  serve(router, routes.updateSubscription, auth, async ({ params, body: input }, _req, res) => {
    const actor = principalOf(res);
    const { id } = await ownedSubscription(ctx.db, actor.customerId, params.id);
    const sub = await updateSubscription(ctx.db, actor, id, input);
    // Also on an already active subscription: a client retrying after a failed resume heals it.
    if (input.isActive === true && sub.isActive) {
      const resumed = await resumeSubscription(ctx.db, ctx.producer, sub.id);
      ctx.logger.info("webhook subscription enabled", { requestId: requestIdOf(res), subscriptionId: sub.id, resumed });
    }
    res.json(presentSubscription(sub, key));
  });

  serve(router, routes.deleteSubscription, auth, async ({ params }, _req, res) => {
    const actor = principalOf(res);
    const { id } = await ownedSubscription(ctx.db, actor.customerId, params.id);
    await softDeleteSubscription(ctx.db, actor, id);
    const cancelled = await cancelSubscriptionDeliveries(ctx.db, id);
    ctx.logger.info("webhook subscription deleted", { requestId: requestIdOf(res), subscriptionId: id, cancelled });
    res.status(204).end();
  });

  serve(router, routes.testSubscription, auth, async ({ params }, _req, res) => {
    const actor = principalOf(res);
    const sub = await ownedSubscription(ctx.db, actor.customerId, params.id);
    requireActive(sub, "sending a test event");
    // Deleted between the lookup above and the event's own check: same answer as if it came first.
    const eventId = await createTestEvent(ctx.db, actor.customerId, sub.id).catch((err: unknown) => {
      throw err instanceof SubscriptionNotFoundError ? subscriptionNotFound() : err;
    });
    res.status(202).json({ eventId });
  });

  router.use(deliveriesRouter(ctx, auth, routes));
  router.use(secretRotationRouter(ctx, auth, routes));
  router.use(recoverRouter(ctx, auth, routes));
  return router;
}

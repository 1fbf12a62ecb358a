import { Router, type RequestHandler } from "express";
import { encryptSecret, runOne } from "@esign/db";
import { newSubscriptionSecret } from "@esign/webhooks";
import type { GatewayContext } from "../context";
import { principalOf } from "../auth/authenticate";
import { requestIdOf } from "../http/request-context";
import { serve } from "../contract/serve";
import { subscriptionNotFound } from "./owned-subscription";
import { revokePreviousSecretSql, rotateSecretSql } from "./subscription-secret.sql";
import type { webhookRoutes } from "./webhook-contracts";

/**
 * Secret rotation with an overlap: the new secret is answered once here (reads show the current one
 * too, as the spec has it), and until the overlap ends every delivery carries a second `v1=` made with
 * the previous secret, so receivers can switch at their own pace. A revoke ends the overlap early.
 */
export function secretRotationRouter(ctx: GatewayContext, auth: RequestHandler, routes: ReturnType<typeof webhookRoutes>): Router {
  const router = Router();

  serve(router, routes.rotateSecret, auth, async ({ params, body }, _req, res) => {
    const actor = principalOf(res);
    const now = new Date();
    const overlapSeconds = body.overlapSeconds ?? ctx.config.WEBHOOK_ROTATION_OVERLAP_SECONDS;
    const previousSecretExpiresAt = overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null;
    const secret = newSubscriptionSecret();
    const secretEnc = encryptSecret(secret, ctx.config.ENCRYPTION_KEY);
    const rotated = await runOne(ctx.db, rotateSecretSql, { id: params.id, customerId: actor.customerId, secretEnc, previousSecretExpiresAt, now });
    if (!rotated) throw subscriptionNotFound();
    ctx.logger.info("webhook secret rotated", {
      requestId: requestIdOf(res),
      subscriptionId: params.id,
      previousSecretExpiresAt: previousSecretExpiresAt?.toISOString() ?? null,
    });
    res.json({ id: params.id, secret, previousSecretExpiresAt: previousSecretExpiresAt?.toISOString() ?? null });
  });

  serve(router, routes.revokePreviousSecret, auth, async ({ params }, _req, res) => {
    const actor = principalOf(res);
    const revoked = await runOne(ctx.db, revokePreviousSecretSql, { id: params.id, customerId: actor.customerId, now: new Date() });
    if (!revoked) throw subscriptionNotFound();
    ctx.logger.info("webhook previous secret revoked", { requestId: requestIdOf(res), subscriptionId: params.id });
    res.status(204).end();
  });
  return router;
}

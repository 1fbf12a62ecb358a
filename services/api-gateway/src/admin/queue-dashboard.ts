import { Router } from "express";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import { QUEUE } from "@esign/schema";
import type { GatewayContext } from "../context";
import { checkOperator, requireOperator, verifyApiToken } from "./admin-auth";
import { clearedSessionCookie, expiryOf, issueSession, sessionCookie } from "./admin-session";
import { sendLoginPage } from "./login-page";
import { DASHBOARD_PATH, queueDashboardRoutes } from "./dashboard-contracts";
import { serve } from "../contract/serve";

/**
 * bull-board at /admin/queues over the four queues (with QUEUE_PREFIX), for platform operators
 * only (admin-auth.ts). Off unless QUEUE_DASHBOARD (default: on in development, off in production):
 * then nothing is mounted and the path answers 404 like any unknown one. Read-only by default in
 * production (QUEUE_DASHBOARD_READ_ONLY): retrying, cleaning or adding jobs by hand is a
 * development convenience, and job data crosses customers.
 */
export function queueDashboard(ctx: GatewayContext): Router {
  const router = Router();
  if (!ctx.config.QUEUE_DASHBOARD) return router;
  const routes = queueDashboardRoutes();
  const LOGIN_PATH = routes.queueDashboardLogin.path;

  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: Object.values(QUEUE).map(
      (name) =>
        new BullMQAdapter(ctx.producer.queue(name), {
          readOnlyMode: ctx.config.QUEUE_DASHBOARD_READ_ONLY,
          description: `prefix ${ctx.config.QUEUE_PREFIX}`,
        }),
    ),
    serverAdapter,
    options: { uiConfig: { boardTitle: "E-Sign queues" } },
  });

  serve(router, routes.queueDashboardLoginPage, (_input, _req, res) => sendLoginPage(res, 200, LOGIN_PATH));
  serve(router, routes.queueDashboardLogin, async ({ body: { token } }, _req, res) => {
    const principal = token ? verifyApiToken(ctx, token) : null;
    const check = await checkOperator(ctx, principal);
    if (!check.ok) return sendLoginPage(res, check.status, LOGIN_PATH, check.message);
    res.setHeader("Set-Cookie", sessionCookie(ctx.config, DASHBOARD_PATH, issueSession(ctx.config, check.principal, expiryOf(token))));
    res.setHeader("Cache-Control", "no-store");
    res.redirect(303, DASHBOARD_PATH);
  });
  serve(router, routes.queueDashboardLogout, (_input, _req, res) => {
    res.setHeader("Set-Cookie", clearedSessionCookie(ctx.config, DASHBOARD_PATH));
    res.redirect(303, LOGIN_PATH);
  });
  router.use(DASHBOARD_PATH, requireOperator(ctx, LOGIN_PATH), serverAdapter.getRouter() as Router);
  return router;
}

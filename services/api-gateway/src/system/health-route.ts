import { Router } from "express";
import { runChecks } from "@esign/runtime";
import { ping, run } from "@esign/db";
import type { GatewayContext } from "../context";
import { serve } from "../contract/serve";
import { systemRoutes } from "./system-contracts";

export function healthRouter(ctx: GatewayContext): Router {
  const router = Router();
  const routes = systemRoutes(ctx.config);
  serve(router, routes.health, (_input, _req, res) => {
    res.json({ status: "ok" });
  });
  serve(router, routes.readiness, async (_input, _req, res) => {
    const r = await runChecks({ postgres: () => run(ctx.db, ping, {}), redis: () => ctx.redis.ping() }, (check, err) =>
      ctx.logger.warn("readiness check failed", { check, error: err.message }),
    );
    res.status(r.ok ? 200 : 503).json({ status: r.ok ? "ready" : "not_ready", checks: r.checks });
  });
  return router;
}

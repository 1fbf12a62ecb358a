import { Router } from "express";
import type { AppConfig } from "@esign/config";
import { AppError } from "@esign/errors";
import { answerMetrics, metricsTokenMatches } from "@esign/runtime";
import { authenticator, serve } from "../contract/serve";
import { systemRoutes } from "./system-contracts";

/** GET /metrics: Prometheus text of this process (METRICS_ENABLED, METRICS_TOKEN). */
export function metricsRouter(config: Pick<AppConfig, "METRICS_ENABLED" | "METRICS_TOKEN">): Router {
  const router = Router();
  // METRICS_TOKEN set: the route declares the scrape token, and this is what checks it.
  const scraper = authenticator((req, _res, next) => {
    if (config.METRICS_TOKEN && !metricsTokenMatches(req.header("authorization"), config.METRICS_TOKEN)) {
      throw new AppError("unauthorized", "Missing or wrong metrics token");
    }
    next();
  });
  serve(router, systemRoutes(config).metrics, scraper, async (_input, req, res) => {
    const answer = await answerMetrics(req.header("authorization"), { enabled: config.METRICS_ENABLED, token: config.METRICS_TOKEN });
    res.status(answer.status).setHeader("Content-Type", answer.contentType).setHeader("Cache-Control", "no-store").send(answer.body);
  });
  return router;
}

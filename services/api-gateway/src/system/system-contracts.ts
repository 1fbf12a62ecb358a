import { z } from "zod";
import type { AppConfig } from "@esign/config";
import { component } from "../contract/components";
import { errors, json, PUBLIC, route, TAGS } from "../contract/route";

export const ZHealth = component("Health", z.object({ status: z.literal("ok") }));
export const ZReadiness = component(
  "Readiness",
  z.object({
    status: z.enum(["ready", "not_ready"]),
    checks: z.record(z.string(), z.string()).describe('"ok" or the failure, per dependency'),
  }),
);

/** Health, readiness and metrics. */
export function systemRoutes(config: Pick<AppConfig, "METRICS_TOKEN">) {
  const ops = { tags: [TAGS.operations], security: PUBLIC } as const;
  return {
    health: route({
      ...ops,
      method: "get",
      path: "/healthz",
      operationId: "health",
      summary: "Liveness: the process answers",
      responses: { 200: { description: "Alive", content: json(ZHealth) } },
    }),
    readiness: route({
      ...ops,
      method: "get",
      path: "/readyz",
      operationId: "readiness",
      summary: "Readiness: PostgreSQL and Redis answer",
      responses: {
        200: { description: "Ready", content: json(ZReadiness) },
        503: { description: "A dependency does not answer", content: json(ZReadiness) },
      },
    }),
    metrics: route({
      ...ops,
      method: "get",
      path: "/metrics",
      operationId: "metrics",
      summary: "Prometheus metrics of this process",
      description: "Off with METRICS_ENABLED=false (then 404). With METRICS_TOKEN set, scrapes need `Authorization: Bearer <METRICS_TOKEN>`.",
      security: config.METRICS_TOKEN ? [{ MetricsToken: [] }] : PUBLIC,
      responses: {
        200: { description: "Prometheus text exposition format", content: { "text/plain": z.string() } },
        ...errors({ 401: "Missing or wrong metrics token", 404: "Metrics are disabled" }),
      },
    }),
  };
}

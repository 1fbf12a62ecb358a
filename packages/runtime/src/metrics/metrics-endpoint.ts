import { timingSafeEqual, createHash } from "node:crypto";
import type { Registry } from "prom-client";
import { metricsRegistry } from "./registry";

export interface MetricsEndpointOptions {
  /** false: `/metrics` answers 404 (METRICS_ENABLED=false). */
  enabled?: boolean;
  /** When set, a scrape must send `Authorization: Bearer <token>` (METRICS_TOKEN). */
  token?: string;
  registry?: Registry;
}

export interface MetricsAnswer {
  status: number;
  contentType: string;
  body: string;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest();

// Hashing both sides first makes the comparison constant-time whatever the lengths.
export function metricsTokenMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(authorization ?? "")?.[1]?.trim() ?? "";
  return timingSafeEqual(sha256(given), sha256(token));
}

const json = (status: number, error: string, message: string): MetricsAnswer => ({
  status,
  contentType: "application/json",
  body: JSON.stringify({ error, message, statusCode: status }),
});

/** The answer to `GET /metrics`, shared by the gateway and the workers' health servers. */
export async function answerMetrics(authorization: string | undefined, opts: MetricsEndpointOptions = {}): Promise<MetricsAnswer> {
  if (opts.enabled === false) return json(404, "not_found", "Not found");
  if (opts.token && !metricsTokenMatches(authorization, opts.token)) return json(401, "unauthorized", "Missing or wrong metrics token");
  const registry = opts.registry ?? metricsRegistry();
  return { status: 200, contentType: registry.contentType, body: await registry.metrics() };
}

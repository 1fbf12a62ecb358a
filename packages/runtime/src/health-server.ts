import http from "node:http";
import type { AddressInfo } from "node:net";
import { DRAINING_ANSWER, isDraining } from "./drain";
import { answerMetrics, type MetricsEndpointOptions } from "./metrics/metrics-endpoint";

export type ReadinessChecks = Record<string, () => Promise<unknown>>;

const READINESS_TIMEOUT_MS = 2000;
const READINESS_TIMEOUT = "readiness check timed out after 2 s";

/** Told why a check failed (the driver's text names hosts and ports): for the log, never the answer. */
export type CheckFailureReporter = (check: string, err: Error) => void;

/**
 * Runs the readiness checks. The unauthenticated answer says only "ok", "unavailable" or "timeout"
 * per dependency; the driver's own error text (it names hosts, ports, users) goes to `report`.
 */
async function runChecks(checks: ReadinessChecks, report?: CheckFailureReporter): Promise<{ ok: boolean; checks: Record<string, string> }> {
  const results: Record<string, string> = {};
  let ok = true;
  await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        // The timer's verdict waits one turn (setImmediate runs after the poll phase): when this
        // process's own loop was busy past the 2 s (a loaded machine), the timers phase comes before
        // the answer already waiting on the socket, and a healthy dependency would read "timeout".
        await Promise.race([
          check(),
          new Promise((_, reject) => (timer = setTimeout(() => setImmediate(() => reject(new Error(READINESS_TIMEOUT))), READINESS_TIMEOUT_MS))),
        ]);
        results[name] = "ok";
      } catch (err) {
        ok = false;
        const timedOut = err instanceof Error && err.message === READINESS_TIMEOUT;
        results[name] = timedOut ? "timeout" : "unavailable";
        report?.(name, err instanceof Error ? err : new Error(String(err)));
      } finally {
        // A pending 2 s timer per check would keep a stopping process (or a test run) alive.
        clearTimeout(timer);
      }
    }),
  );
  return { ok, checks: results };
}

export interface HealthServerOptions {
  /** `/metrics` of the process registry; on unless `enabled: false`. */
  metrics?: MetricsEndpointOptions;
  /** Where a failed readiness check's reason goes (the log). */
  reportCheckFailure?: CheckFailureReporter;
}

/**
 * `/healthz` (the process answers), `/readyz` (its dependencies answer) and `/metrics` (Prometheus
 * text) for workers without HTTP.
 */
export function startHealthServer(port: number, host: string, checks: ReadinessChecks, options: HealthServerOptions = {}): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.url === "/healthz") return send(200, { status: "ok" });
    if (req.url === "/readyz") {
      // A stopping worker says so first (packages/runtime/src/drain.ts), whatever its dependencies say.
      if (isDraining()) return send(503, DRAINING_ANSWER);
      void runChecks(checks, options.reportCheckFailure).then((r) => send(r.ok ? 200 : 503, { status: r.ok ? "ready" : "not_ready", checks: r.checks }));
      return;
    }
    if (req.url === "/metrics" && (req.method === "GET" || req.method === "HEAD")) {
      answerMetrics(req.headers.authorization, options.metrics).then(
        (a) => {
          res.writeHead(a.status, { "content-type": a.contentType, "cache-control": "no-store" });
          res.end(req.method === "HEAD" ? undefined : a.body);
        },
        (err: unknown) => send(500, { error: "internal_error", message: `metrics could not be collected: ${(err as Error).message}`, statusCode: 500 }),
      );
      return;
    }
    send(404, { error: "not_found", message: "Not found", statusCode: 404 });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

export function portOf(server: http.Server): number {
  return (server.address() as AddressInfo).port;
}

export { runChecks };

interface WorkerHealthSettings {
  HEALTH_PORT?: number;
  HOST: string;
  METRICS_ENABLED: boolean;
  METRICS_TOKEN?: string;
}

/** A worker's health server as every worker configures it: its port, /readyz checks and /metrics. */
export function startWorkerHealth(
  config: WorkerHealthSettings,
  defaultPort: number,
  checks: ReadinessChecks,
  reportCheckFailure?: CheckFailureReporter,
): Promise<http.Server> {
  return startHealthServer(config.HEALTH_PORT ?? defaultPort, config.HOST, checks, {
    metrics: { enabled: config.METRICS_ENABLED, token: config.METRICS_TOKEN },
    ...(reportCheckFailure ? { reportCheckFailure } : {}),
  });
}

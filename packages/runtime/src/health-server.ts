import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReadinessChecks = Record<string, () => Promise<unknown>>;

async function runChecks(checks: ReadinessChecks): Promise<{ ok: boolean; checks: Record<string, string> }> {
  const results: Record<string, string> = {};
  let ok = true;
  await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 2000))]);
        results[name] = "ok";
      } catch (err) {
        ok = false;
        results[name] = (err as Error).message;
      }
    }),
  );
  return { ok, checks: results };
}

/** `/healthz` (the process answers) and `/readyz` (its dependencies answer) for workers without HTTP. */
export function startHealthServer(port: number, host: string, checks: ReadinessChecks): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.url === "/healthz") return send(200, { status: "ok" });
    if (req.url === "/readyz") {
      void runChecks(checks).then((r) => send(r.ok ? 200 : 503, { status: r.ok ? "ready" : "not_ready", checks: r.checks }));
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

import type { Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { Registry } from "prom-client";
// From the modules themselves: the package's index also loads the worker boot (Prisma, BullMQ).
import { runChecks, startHealthServer } from "../src/health-server";
import { counter } from "../src/metrics/registry";
import { parsePrometheus, valueOf } from "../../../test/support/prometheus";

describe("the workers' health server", () => {
  let server: Server;
  let url: string;
  const registry = new Registry();

  beforeAll(async () => {
    counter({ name: "t_jobs_total", help: "jobs" }, registry).inc(3);
    server = await startHealthServer(0, "127.0.0.1", { ok: async () => "fine" }, { metrics: { registry, token: "scrape-token-0123456789" } });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("keeps /healthz and /readyz", async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { ok: "ok" } });
  });

  it("answers a failing dependency as unavailable without the driver's text (it names hosts and ports), which goes to the log", async () => {
    const reported: [string, string][] = [];
    const failing = await startHealthServer(
      0,
      "127.0.0.1",
      {
        postgres: async () => {
          throw new Error("connect ECONNREFUSED 10.1.2.3:5432 (user esign)");
        },
        redis: async () => "PONG",
      },
      { reportCheckFailure: (check, err) => reported.push([check, err.message]) },
    );
    try {
      const res = await fetch(`http://127.0.0.1:${(failing.address() as AddressInfo).port}/readyz`);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ status: "not_ready", checks: { postgres: "unavailable", redis: "ok" } });
      expect(text).not.toMatch(/10\.1\.2\.3|5432|ECONNREFUSED|esign/);
      expect(reported).toEqual([["postgres", "connect ECONNREFUSED 10.1.2.3:5432 (user esign)"]]);
    } finally {
      await new Promise<void>((resolve) => failing.close(() => resolve()));
    }
  });

  it("does not read a dependency that answered while this process was busy past the time-out as timed out", async () => {
    // Found in CI on a loaded machine: a worker's first /readyz read "not_ready" with PostgreSQL up,
    // because the process's own loop was busy past the 2 s, and timers run before the waiting answer.
    const peer = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => peer.listen(0, "127.0.0.1", resolve));
    try {
      const port = (peer.address() as AddressInfo).port;
      const checking = runChecks({
        tcp: () =>
          new Promise((resolve, reject) => {
            const client = net.connect(port, "127.0.0.1", () => {
              client.destroy();
              resolve("connected");
            });
            client.once("error", reject);
          }),
      });
      // The process busy for longer than the check's time-out, the connection made meanwhile.
      const until = Date.now() + 2200;
      while (Date.now() < until) {
        // spin: what a starved or busy event loop looks like to the timer
      }
      expect(await checking).toEqual({ ok: true, checks: { tcp: "ok" } });
    } finally {
      await new Promise<void>((resolve) => peer.close(() => resolve()));
    }
  });

  it("serves /metrics in the Prometheus text format, behind the metrics token when one is set", async () => {
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const res = await fetch(`${url}/metrics`, { headers: { authorization: "Bearer scrape-token-0123456789" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(valueOf(parsePrometheus(await res.text()), "t_jobs_total")).toBe(3);
    expect((await fetch(`${url}/metrics`, { method: "POST" })).status).toBe(404);
  });
});

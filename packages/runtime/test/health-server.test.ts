import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Registry } from "prom-client";
import { counter, startHealthServer } from "../src";
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

  it("serves /metrics in the Prometheus text format, behind the metrics token when one is set", async () => {
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const res = await fetch(`${url}/metrics`, { headers: { authorization: "Bearer scrape-token-0123456789" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(valueOf(parsePrometheus(await res.text()), "t_jobs_total")).toBe(3);
    expect((await fetch(`${url}/metrics`, { method: "POST" })).status).toBe(404);
  });
});

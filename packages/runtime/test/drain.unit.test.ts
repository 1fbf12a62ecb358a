import http from "node:http";
import type { AddressInfo } from "node:net";
import { beginDrain, closeGracefully, drainAware, isDraining, onDrain, resetDrainForTests } from "../src/drain";
import { startHealthServer } from "../src/health-server";

/*
 * The drain of a stopping service, in the order a rollout needs: readiness false first while it keeps
 * serving, then no new connection, the requests in flight answered, then gone. Real servers and
 * sockets; the test decides when the slow request ends, so nothing here depends on timing.
 */

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function get(port: number, path: string, agent: http.Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on("error", reject);
  });
}

afterEach(() => resetDrainForTests());

describe("the gateway's drain (drainAware, closeGracefully)", () => {
  let releaseSlow: () => void = () => {};
  const slowStarted: { resolve: () => void; promise: Promise<void> } = (() => {
    let resolve: () => void = () => {};
    const promise = new Promise<void>((r) => (resolve = r));
    return { resolve, promise };
  })();

  const app: http.RequestListener = (req, res) => {
    if (req.url === "/readyz") return void res.end(JSON.stringify({ status: "ready" }));
    if (req.url === "/slow") {
      slowStarted.resolve();
      releaseSlow = () => res.end("slow done");
      return;
    }
    res.end("fast");
  };

  it("says not ready first while still serving, then refuses new connections and answers the request in flight", async () => {
    const server = http.createServer(drainAware(app));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as AddressInfo).port;
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

    expect(await get(port, "/readyz")).toMatchObject({ status: 200 });
    expect(await get(port, "/fast", keepAlive)).toMatchObject({ status: 200, connection: "keep-alive" });
    const slow = get(port, "/slow");
    await slowStarted.promise;

    const drained: string[] = [];
    onDrain(() => drained.push("told"));
    beginDrain();
    expect(isDraining()).toBe(true);
    expect(drained).toEqual(["told"]);
    // Readiness false, answered before the application sees the request.
    expect(await get(port, "/readyz")).toEqual({ status: 503, connection: "close", body: JSON.stringify({ status: "draining" }) });
    // Still serving, but a kept-alive client is told to reconnect (elsewhere) after this answer.
    expect(await get(port, "/fast", keepAlive)).toMatchObject({ status: 200, connection: "close", body: "fast" });

    const closed = closeGracefully(server);
    await expect(get(port, "/fast")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    let closedYet = false;
    void closed.then(() => (closedYet = true));
    // The request in flight keeps the server open until it is answered.
    await new Promise((r) => setImmediate(r));
    expect(closedYet).toBe(false);
    releaseSlow();
    expect(await slow).toMatchObject({ status: 200, body: "slow done" });
    await closed;
    keepAlive.destroy();
  });
});

describe("a worker's health server while draining", () => {
  it("answers /readyz 503 draining whatever its checks say; /healthz stays 200", async () => {
    const server = await startHealthServer(0, "127.0.0.1", { postgres: async () => true }, { metrics: { enabled: false } });
    const port = (server.address() as AddressInfo).port;
    expect(await get(port, "/readyz")).toMatchObject({ status: 200 });
    beginDrain();
    expect(await get(port, "/readyz")).toMatchObject({ status: 503, body: JSON.stringify({ status: "draining" }) });
    expect(await get(port, "/healthz")).toMatchObject({ status: 200 });
    await new Promise((r) => server.close(r));
  });
});

import { spawn } from "node:child_process";
import type dns from "node:dns";
import { once } from "node:events";
import { CONNECT_TIMEOUT_MS, RESPONSE_TIMEOUT_MS, WebhookSender } from "../src/domain/send-webhook";
import {
  closedPort,
  garbageTlsServer,
  neverAcceptingListener,
  silentTlsServer,
  startReceiver,
  type Receiver,
  type TransportFault,
} from "../../../test/support/receiver";

const request = (url: string) => ({
  url,
  body: '{"topic":"webhook"}',
  headers: { "Content-Type": "application/json", "X-Event-Id": "e-1", "X-Event-Type": "webhook.subscription.test" },
});

/** A resolver for the guarded lookup: every name maps to `address`, after `delayMs`. */
function fakeResolver(address: string, delayMs = 0, code?: string): typeof dns.lookup {
  const resolve = (_host: string, _opts: unknown, cb: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => {
    setTimeout(() => {
      if (code) cb(Object.assign(new Error(`lookup failed: ${code}`), { code }), []);
      else cb(null, [{ address, family: address.includes(":") ? 6 : 4 }]);
    }, delayMs);
  };
  return resolve as unknown as typeof dns.lookup;
}

let receiver: Receiver;
const faults: TransportFault[] = [];
const dev = new WebhookSender({ allowPrivate: true });
const prod = new WebhookSender({ allowPrivate: false });

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  dev.close();
  prod.close();
  await Promise.all(faults.map((f) => f.close()));
  await receiver.close();
});

describe("WebhookSender", () => {
  it("sends the body and headers as given and counts only 2xx as success", async () => {
    receiver.on("/ok", () => ({ status: 204 }));
    const result = await dev.send(request(receiver.url("/ok")));
    expect(result).toMatchObject({ outcome: "success", cause: "ok", httpStatus: 204 });
    const [got] = receiver.requests("/ok");
    expect(got?.method).toBe("POST");
    expect(got?.rawBody).toBe('{"topic":"webhook"}');
    expect(got?.headers["x-event-id"]).toBe("e-1");
    expect(got?.headers["content-type"]).toBe("application/json");
  });

  it.each([
    [302, { location: "/elsewhere" }],
    [404, {}],
    [500, {}],
  ])("treats %i as non_2xx and does not follow redirects", async (status, headers) => {
    const path = `/status-${status}`;
    receiver.on(path, () => ({ status, headers }));
    const result = await dev.send(request(receiver.url(path)));
    expect(result).toMatchObject({ outcome: "failure", cause: "non_2xx", httpStatus: status });
    expect(receiver.requests("/elsewhere")).toHaveLength(0);
  });

  it("gives up on an answer slower than 1 s (response_timeout), measured from the connect", async () => {
    // The answer would come at 3 s: a clock that did not give up at 1 s reads 3 s. The margin (1 s)
    // is for a starved machine's late timer (a clean-clone run read 1,300 ms against a 300 ms margin).
    receiver.on("/slow", () => ({ status: 200, delayMs: 3000 }));
    const result = await dev.send(request(receiver.url("/slow")));
    expect(result).toMatchObject({ outcome: "failure", cause: "response_timeout", httpStatus: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(RESPONSE_TIMEOUT_MS);
    expect(result.durationMs).toBeLessThan(RESPONSE_TIMEOUT_MS + 1000);
  });

  it("does not blame the receiver for the dispatcher's own stall: an answer that came in time is read before the verdict", async () => {
    // The receiver in a process of its own, answering 200 ms after each request: it answers while
    // this process is kept off its event loop (a busy wait standing for a starved machine or a long
    // GC) past both limits. Before the fix the expired timer ran before the waiting answer was read:
    // response_timeout (or connect_timeout, if the stall began before the connection was read).
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const s = require("node:http").createServer((q, r) => q.resume().on("end", () => setTimeout(() => r.end("ok"), 200)));
         s.listen(0, "127.0.0.1", () => console.log(s.address().port));`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const sender = new WebhookSender({ allowPrivate: true, connectTimeoutMs: 1000, responseTimeoutMs: 1000 });
    try {
      const [line] = (await once(child.stdout!, "data")) as [Buffer];
      const sent = sender.send(request(`http://127.0.0.1:${Number(line.toString().trim())}/stalled`));
      await new Promise((r) => setTimeout(r, 100));
      // The stall ends in the loop's check phase: its next turn runs the expired timers before it
      // polls for the answer that came meanwhile (as after any long callback or collection).
      await new Promise<void>((r) =>
        setImmediate(() => {
          const end = Date.now() + 1500;
          while (Date.now() < end) {
            // the stall: this process does nothing else, the kernel holds what arrives
          }
          r();
        }),
      );
      expect(await sent).toMatchObject({ outcome: "success", cause: "ok", httpStatus: 200 });
    } finally {
      sender.close();
      child.kill();
    }
  });

  it("keeps at most maxInFlight requests open; a queued one starts its clock only when it is sent", async () => {
    let open = 0;
    let most = 0;
    receiver.on("/counted", () => {
      open += 1;
      most = Math.max(most, open);
      setTimeout(() => (open -= 1), 500);
      return { status: 200, delayMs: 500 };
    });
    const limited = new WebhookSender({ allowPrivate: true, maxInFlight: 2 });
    try {
      const results = await Promise.all(Array.from({ length: 6 }, () => limited.send(request(receiver.url("/counted")))));
      expect(most).toBe(2);
      expect(results.map((r) => r.outcome)).toEqual(Array(6).fill("success"));
      // Three rounds of 500 ms, yet no request timed out or measured its wait in the queue: one that
      // did would read 1,000 ms or more. The margin is for a starved machine (a clean-clone run read
      // 679 ms against 600 with rounds of 300 ms).
      for (const r of results) expect(r.durationMs).toBeLessThan(1000);
    } finally {
      limited.close();
    }
  });

  it("gives up on a connection not made within 200 ms (connect_timeout)", async () => {
    const listener = await neverAcceptingListener();
    faults.push(listener);
    const result = await dev.send(request(listener.url));
    expect(result).toMatchObject({ outcome: "failure", cause: "connect_timeout" });
    expect(result.durationMs).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS);
    // Far below the kernel's own connect timeout (over a minute of SYN retries): the limit cut it short. Not
    // a tighter bound: on a loaded CI machine the timer itself fires late (a run read 604 ms).
    expect(result.durationMs).toBeLessThan(10 * CONNECT_TIMEOUT_MS);
  });

  it("counts a TLS handshake that never completes against the response limit, not the connect limit", async () => {
    const silent = await silentTlsServer();
    faults.push(silent);
    const result = await dev.send(request(silent.url));
    expect(result).toMatchObject({ outcome: "failure", cause: "response_timeout" });
    expect(result.durationMs).toBeGreaterThanOrEqual(RESPONSE_TIMEOUT_MS);
  });

  it("counts DNS inside the 200 ms connect budget", async () => {
    receiver.on("/dns", () => ({ status: 200 }));
    // Lookups far on either side of the budget: a loaded machine adds its own delay to both (a CI run's
    // 50 ms lookup plus connect went past 200 ms), so the quick one answers at once and the slow one
    // would take five budgets.
    const quick = new WebhookSender({ allowPrivate: true, resolve: fakeResolver("127.0.0.1", 0) });
    const slow = new WebhookSender({ allowPrivate: true, resolve: fakeResolver("127.0.0.1", 5 * CONNECT_TIMEOUT_MS) });
    const port = receiver.port;
    expect(await quick.send(request(`http://hooks.example.test:${port}/dns`))).toMatchObject({ outcome: "success" });
    const late = await slow.send(request(`http://hooks.example.test:${port}/dns`));
    expect(late).toMatchObject({ outcome: "failure", cause: "connect_timeout" });
    // Cut at the budget, not after the slow lookup answered.
    expect(late.durationMs).toBeLessThan(5 * CONNECT_TIMEOUT_MS);
    quick.close();
    slow.close();
  });

  it("reports a refused connection, a failed TLS handshake and a failed lookup", async () => {
    const refused = await closedPort();
    const tls = await garbageTlsServer();
    faults.push(refused, tls);
    expect(await dev.send(request(refused.url))).toMatchObject({ outcome: "failure", cause: "connection_refused" });
    expect(await dev.send(request(tls.url))).toMatchObject({ outcome: "failure", cause: "tls_error" });
    const noDns = new WebhookSender({ allowPrivate: true, resolve: fakeResolver("", 0, "ENOTFOUND") });
    expect(await noDns.send(request("http://nowhere.example.test/"))).toMatchObject({ outcome: "failure", cause: "dns_error" });
    noDns.close();
  });

  describe("in production (private addresses refused)", () => {
    it.each([
      "http://127.0.0.1:9/x",
      "http://[::1]:9/x",
      "http://[::ffff:127.0.0.1]:9/x",
      "http://2130706433:9/x",
      "http://169.254.169.254/latest",
      "http://10.1.2.3/x",
    ])("refuses the IP literal %s without connecting (blocked_address)", async (url) => {
      expect(await prod.send(request(url))).toMatchObject({ outcome: "failure", cause: "blocked_address", httpStatus: null });
    });

    it("refuses a name that resolves to a private address, checked on the address connected to", async () => {
      receiver.on("/rebind", () => ({ status: 200 }));
      const guarded = new WebhookSender({ allowPrivate: false, resolve: fakeResolver("127.0.0.1") });
      expect(await guarded.send(request(`http://public.example.test:${receiver.port}/rebind`))).toMatchObject({ cause: "blocked_address" });
      expect(await prod.send(request(`http://localhost:${receiver.port}/rebind`))).toMatchObject({ cause: "blocked_address" });
      expect(receiver.requests("/rebind")).toHaveLength(0);
      guarded.close();
    });

    it("refuses a non-web port of a public name before connecting (a subscription saved before the port rule)", async () => {
      const guarded = new WebhookSender({ allowPrivate: false, resolve: fakeResolver("93.184.215.14") });
      for (const port of [6379, 5432, 22]) {
        expect(await guarded.send(request(`https://public.example.test:${port}/x`))).toMatchObject({
          outcome: "failure",
          cause: "blocked_address",
          detail: `port ${port} is not a web port`,
        });
      }
      guarded.close();
    });
  });
});

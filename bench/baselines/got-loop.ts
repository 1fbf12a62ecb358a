import http from "node:http";
import got from "got";
import { signDelivery } from "@esign/webhook-verify";
import { runOpenModel } from "../load/open-model";
import type { GotLoopSpec } from "../support/got-baseline";

/*
 * Baseline of the dispatch scenario: a plain got loop POSTing the same signed bodies to the same
 * receiver, with the dispatcher's HTTP settings (keep-alive agent with the same pool options, no
 * redirects, no retries, no decompression) and the same concurrency (WEBHOOK_CONCURRENCY). Bodies
 * are signed before the clock starts: this is the HTTP floor, with no queue and no database.
 *
 *   burst: every request as fast as `concurrency` workers allow.
 *   rate:  open model at a fixed rate; each request carries X-Bench-Intended (epoch ms) so the
 *          receiver measures intended send -> arrival, the same definition as the dispatcher's.
 */

// The parent's message type (bench/support/got-baseline.ts): a type-only import, erased at run time.
type Spec = GotLoopSpec;

let agent = new http.Agent({ keepAlive: true, timeout: 4000, maxFreeSockets: 64 });

function requests(spec: Spec) {
  const out: { url: string; body: string; headers: Record<string, string> }[] = [];
  for (const e of spec.events) {
    for (const s of spec.subscriptions) {
      const headers: Record<string, string> = { "Content-Type": "application/json", "X-Event-Id": e.id, "X-Event-Type": e.type };
      headers["X-Event-Signature"] = signDelivery({ secret: s.secret, body: e.body, headers });
      out.push({ url: s.url, body: e.body, headers: { ...headers, "user-agent": "esign-webhooks/1.0" } });
    }
  }
  return out;
}

const send = (r: { url: string; body: string; headers: Record<string, string> }, extra: Record<string, string> = {}) =>
  got.post(r.url, {
    body: r.body,
    headers: { ...r.headers, ...extra },
    agent: { http: agent },
    followRedirect: false,
    throwHttpErrors: false,
    retry: { limit: 0 },
    decompress: false,
    http2: false,
  });

process.on("message", (spec: Spec) => {
  void (async () => {
    const list = requests(spec);
    // At most `concurrency` requests on the wire, like the dispatcher's worker; the rest wait in the agent.
    agent = new http.Agent({ keepAlive: true, timeout: 4000, maxFreeSockets: 64, maxSockets: spec.concurrency });
    let ok = 0;
    let failed = 0;
    const startedAt = performance.timeOrigin + performance.now();
    if (spec.cmd === "burst") {
      let next = 0;
      await Promise.all(
        Array.from({ length: spec.concurrency }, async () => {
          while (next < list.length) {
            const r = list[next++]!;
            try {
              const res = await send(r);
              if (res.statusCode >= 200 && res.statusCode < 300) ok += 1;
              else failed += 1;
            } catch {
              failed += 1;
            }
          }
        }),
      );
    } else {
      // Open model: arrivals never wait for answers; beyond `concurrency` they queue in the agent,
      // as deliveries queue in Redis in front of the dispatcher.
      const result = await runOpenModel({
        rate: spec.rate ?? 100,
        durationMs: spec.durationMs ?? 5000,
        maxInFlight: 100_000,
        fire: async (i, intendedAt) => {
          const res = await send(list[i % list.length]!, { "X-Bench-Intended": intendedAt.toFixed(3) });
          return { ok: res.statusCode >= 200 && res.statusCode < 300 };
        },
      });
      ok = result.ok;
      failed = result.failed + result.dropped + result.timedOut;
      // Requests still queued in the agent past the drain timeout must not keep the receiver (and
      // the machine) busy during the next measurement: abort them.
      agent.destroy();
    }
    const endedAt = performance.timeOrigin + performance.now();
    process.send?.({ type: "done", ok, failed, startedAt, endedAt });
  })();
});
process.on("disconnect", () => process.exit(0));
process.send?.({ type: "ready" });

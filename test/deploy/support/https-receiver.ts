import { readFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { MemoryEventIdStore, verifyWebhook } from "@esign/webhook-verify";
import { eventually } from "../../support/eventually";

/** One delivery as the receiver took it: verified with the subscription's secret, or why not. */
export interface Delivery {
  eventType: string;
  eventId: string;
  verified: boolean;
  reason?: string;
  body: Record<string, unknown>;
}

export interface HttpsReceiver {
  url: string;
  deliveries: Delivery[];
  /** The secret the subscription answered with (set before the first delivery). */
  setSecret(secret: string): void;
  waitFor(eventType: string, predicate?: (d: Delivery) => boolean, timeoutMs?: number): Promise<Delivery>;
  close(): Promise<void>;
}

/**
 * A webhook receiver as an integrator runs one: https (a certificate of the world's CA, which the
 * dispatcher trusts through NODE_EXTRA_CA_CERTS), every delivery verified with @esign/webhook-verify
 * before it is acknowledged (401 otherwise, so a bad signature shows as failed attempts).
 */
export async function startHttpsReceiver(tls: { certFile: string; keyFile: string }): Promise<HttpsReceiver> {
  let secret = "";
  const deliveries: Delivery[] = [];
  const ids = new MemoryEventIdStore();
  const server = https.createServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks);
      void verifyWebhook({ secret, rawBody, headers: req.headers, eventIdStore: ids }).then((result) => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(rawBody.toString("utf8")) as Record<string, unknown>;
        } catch {
          // not JSON: recorded as unverified below
        }
        deliveries.push({
          eventType: String(req.headers["x-event-type"] ?? body.eventType ?? ""),
          eventId: String(req.headers["x-event-id"] ?? ""),
          verified: result.ok || result.reason === "replayed_event",
          ...(result.ok ? {} : { reason: result.reason }),
          body,
        });
        res.writeHead(result.ok || result.reason === "replayed_event" ? 200 : 401).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hooks/esign`,
    deliveries,
    setSecret: (s) => {
      secret = s;
    },
    waitFor: (eventType, predicate = () => true, timeoutMs = 60_000) =>
      eventually(async () => deliveries.find((d) => d.eventType === eventType && predicate(d)), timeoutMs).catch(() => {
        throw new Error(`no ${eventType} delivery within ${timeoutMs} ms; got ${JSON.stringify(deliveries.map((d) => [d.eventType, d.verified, d.reason]))}`);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

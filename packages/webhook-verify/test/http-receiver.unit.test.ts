import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { MemoryEventIdStore, signDelivery, verifyWebhook, type VerifyFailureReason } from "../src";

const SECRET = "whsec_http_test";

const STATUS_FOR: Record<Exclude<VerifyFailureReason, "replayed_event">, number> = {
  malformed_signature: 400,
  missing_component: 400,
  missing_header: 400,
  timestamp_out_of_tolerance: 401,
  signature_mismatch: 401,
};

interface Received {
  eventId: string;
  eventType: string;
  body: unknown;
}

function readRawBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** A plain node:http receiver: verify, answer at once, process later. */
function startReceiver(processed: Received[]): Promise<Server> {
  const store = new MemoryEventIdStore();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const rawBody = await readRawBody(req);
      const result = await verifyWebhook({ secret: SECRET, rawBody, headers: req.headers, eventIdStore: store });
      if (!result.ok) {
        if (result.reason === "replayed_event") {
          // Already accepted once: acknowledge so the dispatcher stops retrying, but do not process again.
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ duplicate: true }));
          return;
        }
        res.writeHead(STATUS_FOR[result.reason], { "content-type": "application/json" });
        res.end(JSON.stringify({ error: result.reason }));
        return;
      }
      res.writeHead(204).end();
      setImmediate(() => {
        processed.push({ eventId: result.eventId, eventType: result.eventType, body: JSON.parse(rawBody.toString("utf8")) });
      });
    })().catch(() => {
      res.writeHead(500).end();
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function post(server: Server, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path: "/webhooks/esign", method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function signedRequest(eventId: string, body: string): Record<string, string> {
  const headers = {
    "Content-Type": "application/json",
    "X-Event-Id": eventId,
    "X-Event-Type": "webhook.subscription.test",
  };
  return { ...headers, "X-Event-Signature": signDelivery({ secret: SECRET, body, headers }) };
}

describe("verifying over real HTTP (node:http)", () => {
  const processed: Received[] = [];
  let server: Server;

  beforeAll(async () => {
    server = await startReceiver(processed);
  });

  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });

  const body = JSON.stringify({
    topic: "webhook",
    eventType: "test",
    eventTime: { date: "2025-01-01 00:00:00.000000", timezone_type: 3, timezone: "UTC" },
    payload: "ping ✓",
  });

  it("accepts a signed POST, answers 204 and processes it afterwards", async () => {
    const response = await post(server, body, signedRequest("evt-http-1", body));
    expect(response.status).toBe(204);
    await new Promise((resolve) => setImmediate(resolve));
    expect(processed).toContainEqual({ eventId: "evt-http-1", eventType: "webhook.subscription.test", body: JSON.parse(body) });
  });

  it("answers 401 to a tampered body", async () => {
    const headers = signedRequest("evt-http-2", body);
    const response = await post(server, body.replace("ping", "pong"), headers);
    expect(response).toEqual({ status: 401, body: JSON.stringify({ error: "signature_mismatch" }) });
  });

  it("answers 400 to a malformed signature header", async () => {
    const headers = { ...signedRequest("evt-http-3", body), "X-Event-Signature": "v1=deadbeef" };
    const response = await post(server, body, headers);
    expect(response).toEqual({ status: 400, body: JSON.stringify({ error: "missing_component" }) });
  });

  it("acknowledges a replay without processing it twice", async () => {
    const headers = signedRequest("evt-http-4", body);
    expect((await post(server, body, headers)).status).toBe(204);
    const replay = await post(server, body, headers);
    expect(replay).toEqual({ status: 200, body: JSON.stringify({ duplicate: true }) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(processed.filter((event) => event.eventId === "evt-http-4")).toHaveLength(1);
  });
});

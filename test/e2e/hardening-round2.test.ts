import { randomBytes, randomUUID } from "node:crypto";
import { connect, type Socket } from "node:net";
import { Redis } from "ioredis";
import type { CustomerCredentials } from "@esign/accounts";
import { getToken } from "../support/api";
import { eventually } from "../support/eventually";
import { makePdf } from "../support/pdf";
import { readmeWsseHeaders } from "../support/penneo-clients";
import { createCase } from "../support/signing-api";
import { startService, type ServiceProcess } from "../support/services";
import { startSystem, type System } from "../support/system";
import { createWorld, type World } from "../support/webhook-world";

/*
 * Hardening, second round (issue 26): the attacker's findings, each answered at the running system
 * in a world of its own (database and Redis prefix), so that no other suite's requests count.
 */

let world: World;
let system: System;
let redis: Redis;
let pdf: Buffer;

/** Ends every counter's window of this world now (instead of waiting up to a minute). */
async function endWindows(): Promise<void> {
  for (const key of await redis.keys(`${world.queuePrefix}:rl:*`)) await redis.del(key);
}

const oneSigner = (title: string) => ({
  caseFile: {
    title,
    signers: [{ name: "Alice", email: "alice@example.com", enableInsecureSigning: true, insecureSigningMethods: ["text"] }],
    documents: [{ title: "Contract", name: "contract.pdf" }],
  },
});

// TRUST_PROXY=loopback: the tests speak from several client addresses through X-Forwarded-For.
const SETTINGS = { RATE_LIMIT_SCALE: "1", JOB_POLL_LIMIT_PER_MINUTE: "0", TRUST_PROXY: "loopback", TOKEN_FAILURES_PER_CLIENT_PER_MINUTE: "20" };

beforeAll(async () => {
  world = await createWorld("hardening2");
  redis = new Redis(world.redisUrl);
  // LOG_LEVEL=http: the access-log lines too, so that "no token in any log line" covers them.
  system = await startSystem(["casefile-worker"], world.env(SETTINGS), { LOG_LEVEL: "http" });
  pdf = await makePdf("Contract");
}, 90_000);

afterAll(async () => {
  await system?.stop();
  redis?.disconnect();
  await world?.close();
});

beforeEach(endWindows);

describe("a malformed percent-escape in a route parameter (item 5)", () => {
  it("is a 400 naming the path, with no stack and no signing token in any log line", async () => {
    const customer = await world.customer();
    const token = await getToken(system.gateway.url, customer);
    const signing = await createCase(system.gateway.url, token, oneSigner("Escapes"), [{ name: "contract.pdf", content: pdf }]);
    const link = Object.values(signing.links)[0]!;
    const logStart = system.gateway.logs.length;
    for (const [path, headers] of [
      ["/sign/%E0", {}],
      ["/t/%E0", {}],
      [`/sign/${link.token}%E0`, { accept: "application/json" }],
      [`/sign/${link.token}%E0`, { accept: "text/html" }],
      ["/api/v3/casefiles/%ff", { "x-auth-token": token }],
      ["/api/v3/casefiles/%ff/documents", { "x-auth-token": token }],
    ] as const) {
      const res = await fetch(`${system.gateway.url}${path}`, { headers });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      const body = await res.text();
      expect(body).not.toContain(link.token);
    }
    // The access lines are written when each answer finishes: give the last one its turn.
    await new Promise((r) => setTimeout(r, 200));
    const lines = system.gateway.logs.slice(logStart);
    expect(lines).toContain('"status":400');
    expect(lines).not.toContain(link.token);
    expect(lines).not.toMatch(/"level":"error"|URIError|at [A-Za-z.]+ \(/);
  });
});

describe("WSSE as Penneo's own page draws it (item 12)", () => {
  const list = (headers: Record<string, string>) => fetch(`${system.gateway.url}/api/v3/casefiles`, { headers });

  it("accepts an 8-byte nonce; refuses it replayed, a Created 90 s off either way, and a nonce over 128 characters", async () => {
    const c = await world.customer();
    const nonce = randomBytes(8);
    const created = new Date().toISOString();
    expect((await list(readmeWsseHeaders(c.apiKey, c.apiSecret, { nonce, created }))).status).toBe(200);
    expect((await list(readmeWsseHeaders(c.apiKey, c.apiSecret))).status).toBe(200);
    const replay = await list(readmeWsseHeaders(c.apiKey, c.apiSecret, { nonce, created }));
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ message: expect.stringContaining("already used") });
    for (const offset of [-90_000, 90_000]) {
      const off = await list(readmeWsseHeaders(c.apiKey, c.apiSecret, { created: new Date(Date.now() + offset).toISOString() }));
      expect(off.status).toBe(401);
      expect(await off.json()).toMatchObject({ message: expect.stringContaining("60 seconds") });
    }
    expect((await list(readmeWsseHeaders(c.apiKey, c.apiSecret, { nonce: randomBytes(97) }))).status).toBe(401);
    expect((await list(readmeWsseHeaders(c.apiKey, c.apiSecret, { nonce: randomBytes(7) }))).status).toBe(401);
  });
});

describe("one replay store for the api_keys grant and X-WSSE (item 8)", () => {
  it("refuses as X-WSSE a digest spent at /oauth/token, and at /oauth/token one spent as X-WSSE", async () => {
    const c = await world.customer();
    const grantFirst = { nonce: randomBytes(20), created: new Date().toISOString() };
    const grant = (n: { nonce: Buffer; created: string }) => {
      const header = readmeWsseHeaders(c.apiKey, c.apiSecret, n)["X-WSSE"]!;
      const digest = /PasswordDigest="([^"]+)"/.exec(header)![1]!;
      return fetch(`${system.gateway.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          grant_type: "api_keys",
          client_id: c.clientId,
          client_secret: c.clientSecret,
          key: c.apiKey,
          nonce: n.nonce.toString("base64"),
          created_at: n.created,
          digest,
        }),
      });
    };
    expect((await grant(grantFirst)).status).toBe(200);
    expect((await fetch(`${system.gateway.url}/api/v3/casefiles`, { headers: readmeWsseHeaders(c.apiKey, c.apiSecret, grantFirst) })).status).toBe(401);

    const headerFirst = { nonce: randomBytes(20), created: new Date().toISOString() };
    expect((await fetch(`${system.gateway.url}/api/v3/casefiles`, { headers: readmeWsseHeaders(c.apiKey, c.apiSecret, headerFirst) })).status).toBe(200);
    const again = await grant(headerFirst);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: "invalid_grant", error_description: "Nonce already used" });
  });
});

const tokenFrom = (address: string, body: Record<string, string>) =>
  fetch(`${system.gateway.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify(body),
  });
const secretOf = (c: CustomerCredentials, secret = c.clientSecret) => ({ grant_type: "client_credentials", client_id: c.clientId, client_secret: secret });

describe("failed authentications throttle the guesser, never the client's own secret (item 3)", () => {
  it("locks the guessing address out of that client only; the client goes on from its usual and from other addresses", async () => {
    const victim = await world.customer();
    expect((await tokenFrom("198.51.100.1", secretOf(victim))).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await tokenFrom("203.0.113.9", secretOf(victim, "wrong"))).status).toBe(401);
    const guesser = await tokenFrom("203.0.113.9", secretOf(victim));
    expect(guesser.status).toBe(429);
    expect(Number(guesser.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await tokenFrom("198.51.100.1", secretOf(victim))).status).toBe(200);
    expect((await tokenFrom("198.51.100.2", secretOf(victim))).status).toBe(200);
    // The same for Basic and for the refresh_token grant: the guessing address alone is refused.
    const basic = (address: string, secret: string) =>
      fetch(`${system.gateway.url}/oauth/token`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": address,
          authorization: `Basic ${Buffer.from(`${victim.clientId}:${secret}`).toString("base64")}`,
        },
        body: JSON.stringify({ grant_type: "client_credentials" }),
      });
    expect((await basic("203.0.113.9", victim.clientSecret)).status).toBe(429);
    expect((await basic("198.51.100.1", victim.clientSecret)).status).toBe(200);
  });

  it("a guess spread over addresses stops at the client's ceiling for new addresses, never for its usual ones", async () => {
    const victim = await world.customer();
    expect((await tokenFrom("198.51.100.7", secretOf(victim))).status).toBe(200);
    // 20 (TOKEN_FAILURES_PER_CLIENT_PER_MINUTE here) over two addresses, 10 each.
    for (let i = 0; i < 20; i++) expect((await tokenFrom(`203.0.113.${20 + (i % 2)}`, secretOf(victim, "wrong"))).status).toBe(401);
    expect((await tokenFrom("203.0.113.30", secretOf(victim, "wrong"))).status).toBe(429);
    expect((await tokenFrom("203.0.113.31", secretOf(victim))).status).toBe(429);
    expect((await tokenFrom("198.51.100.7", secretOf(victim))).status).toBe(200);
  });

  it("WSSE: a wrong digest locks the guessing address out of that API key only", async () => {
    const victim = await world.customer();
    const list = (address: string, headers: Record<string, string>) =>
      fetch(`${system.gateway.url}/api/v3/casefiles`, { headers: { ...headers, "x-forwarded-for": address } });
    for (let i = 0; i < 10; i++) expect((await list("203.0.113.40", readmeWsseHeaders(victim.apiKey, "not-the-secret"))).status).toBe(401);
    expect((await list("203.0.113.40", readmeWsseHeaders(victim.apiKey, victim.apiSecret))).status).toBe(429);
    expect((await list("198.51.100.40", readmeWsseHeaders(victim.apiKey, victim.apiSecret))).status).toBe(200);
  });
});

describe("failures are counted before the work (item 4)", () => {
  it("of 200 concurrent wrong secrets from one address, at most 10 are evaluated; the rest are 429", async () => {
    const victim = await world.customer();
    const answers = await Promise.all(Array.from({ length: 200 }, () => tokenFrom("203.0.113.50", secretOf(victim, "wrong"))));
    const statuses = answers.map((r) => r.status);
    const evaluated = statuses.filter((s) => s === 401).length;
    expect(evaluated).toBeGreaterThanOrEqual(1);
    expect(evaluated).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    // The window holds at most 10 failures: no late settlement pushed it past the budget.
    const [counter] = await redis.keys(`${world.queuePrefix}:rl:token-failures-client-address:f:client:${victim.clientId}:*`);
    expect(Number(await redis.get(counter!))).toBe(evaluated);
  });
});

describe("the public job-status endpoint, per address (item 7)", () => {
  const poll = (address: string, uuid: string, payloadHash: string) =>
    fetch(`${system.gateway.url}/send/api/v1/queue/public/status`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body: JSON.stringify({ uuid, payloadHash }),
    });

  it("after 60 unknown jobs from an address, 429 with Retry-After before any lookup; other addresses go on", async () => {
    for (let i = 0; i < 60; i++) expect((await poll("203.0.113.70", randomUUID(), "a".repeat(64))).status).toBe(404);
    const blocked = await poll("203.0.113.70", randomUUID(), "a".repeat(64));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await poll("198.51.100.70", randomUUID(), "a".repeat(64))).status).toBe(404);
  });
});

describe("slow clients (item 9)", () => {
  let capped: ServiceProcess;
  const dripping: Socket[] = [];

  beforeAll(async () => {
    capped = await startService(
      "api-gateway",
      world.env({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: "5", HTTP_CONNECTION_CAP_LOOPBACK: "true", HTTP_HEADERS_TIMEOUT_MS: "2000" }),
    );
  }, 60_000);

  afterAll(async () => {
    for (const s of dripping) s.destroy();
    await capped?.stop();
  });

  /** A connection that sends a request head one byte at a time, every 500 ms, and never finishes it. */
  function drip(): { socket: Socket; closed: Promise<void> } {
    const socket = connect(capped.port, "127.0.0.1");
    dripping.push(socket);
    socket.on("error", () => undefined);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.once("connect", () => {
      socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
      const timer = setInterval(() => (socket.writable ? socket.write("X") : clearInterval(timer)), 500);
      socket.once("close", () => clearInterval(timer));
    });
    return { socket, closed };
  }

  it("closes connections over the per-address cap at once, and ends dripping heads at the header timeout", async () => {
    const first = Array.from({ length: 5 }, drip);
    await Promise.all(first.map((d) => new Promise((r) => d.socket.once("connect", r))));
    // The 6th to 8th are closed before they send anything the gateway reads.
    const over = Array.from({ length: 3 }, drip);
    await Promise.all(over.map((d) => d.closed));
    // The dripping five are cut by HTTP_HEADERS_TIMEOUT_MS (2 s here), not left open for minutes.
    await Promise.all(first.map((d) => d.closed));
    expect((await fetch(`${capped.url}/healthz`)).status).toBe(200);
  }, 30_000);

  it("keeps an idle kept-alive connection 65 s, past its header timeout: a client's reuse gets its answer, not a reset", async () => {
    const socket = connect(capped.port, "127.0.0.1");
    dripping.push(socket);
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    const answers = () => received.match(/HTTP\/1\.1 200 /g)?.length ?? 0;
    await new Promise((r) => socket.once("connect", r));
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await eventually(async () => answers() >= 1, 10_000);
    expect(received).toMatch(/^Keep-Alive: timeout=65\r$/im);
    // Idle past Node's default keep-alive (5 s) and this gateway's header timeout (2 s), then reused.
    await new Promise((r) => setTimeout(r, 6_000));
    expect(socket.destroyed).toBe(false);
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await eventually(async () => answers() >= 2, 10_000);
    expect(answers()).toBe(2);
    socket.destroy();
  }, 30_000);
});

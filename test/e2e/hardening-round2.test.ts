import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { getToken } from "../support/api";
import { makePdf } from "../support/pdf";
import { readmeWsseHeaders } from "../support/penneo-clients";
import { createCase } from "../support/signing-api";
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

beforeAll(async () => {
  world = await createWorld("hardening2");
  redis = new Redis(world.redisUrl);
  // LOG_LEVEL=http: the access-log lines too, so that "no token in any log line" covers them.
  system = await startSystem(["casefile-worker"], world.env({ RATE_LIMIT_SCALE: "1", JOB_POLL_LIMIT_PER_MINUTE: "0" }), { LOG_LEVEL: "http" });
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
        body: JSON.stringify({ grant_type: "api_keys", client_id: c.clientId, client_secret: c.clientSecret, key: c.apiKey, nonce: n.nonce.toString("base64"), created_at: n.created, digest }),
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

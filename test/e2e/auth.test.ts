import { createHash, randomBytes } from "node:crypto";
import type { CustomerCredentials } from "@esign/accounts";
import { closeTestDb, getToken, newCustomer, postCreate, testDb, waitForJob } from "../support/api";
import { DEV_JWT, forgeJwt, gatewayClaims } from "../support/jwt-forge";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import type { ServiceProcess } from "../support/services";
import { startSystem, type System } from "../support/system";

let system: System;
let gateway: ServiceProcess;
let a: CustomerCredentials;
let b: CustomerCredentials;
let tokenA: string;
let tokenB: string;
let contract: Buffer;
let appendix: Buffer;
let caseFileId: number;
let documentId: number;

const files = () => [
  { name: "contract.pdf", content: contract },
  { name: "appendix.pdf", content: appendix },
];

interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
  access_token_expires_at: number;
  refresh_token?: string;
  refresh_token_expires_at?: number;
}

async function tokenRequest(body: Record<string, unknown> | URLSearchParams, headers: Record<string, string> = {}) {
  const isForm = body instanceof URLSearchParams;
  const res = await fetch(`${gateway.url}/oauth/token`, {
    method: "POST",
    headers: isForm ? headers : { "content-type": "application/json", ...headers },
    body: isForm ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as TokenAnswer & { error?: string; error_description?: string } };
}

/** The api_keys grant of the contract: digest = base64(sha1(rawNonce + created_at + apiSecret)). */
function apiKeysGrant(creds: CustomerCredentials, opts: { createdAt?: string | number; nonce?: Buffer; apiSecret?: string } = {}) {
  const rawNonce = opts.nonce ?? randomBytes(16);
  const createdAt = opts.createdAt ?? new Date().toISOString();
  const digest = createHash("sha1")
    .update(Buffer.concat([rawNonce, Buffer.from(String(createdAt)), Buffer.from(opts.apiSecret ?? creds.apiSecret)]))
    .digest("base64");
  return {
    grant_type: "api_keys",
    client_id: creds.clientId,
    client_secret: creds.clientSecret,
    key: creds.apiKey,
    created_at: createdAt,
    nonce: rawNonce.toString("base64"),
    digest,
  };
}

/** Read and write endpoints answer the contract's error body; the token endpoint RFC 6749's. */
const UNAUTHORIZED = { error: "unauthorized", message: expect.any(String), statusCode: 401 };
const INVALID_CLIENT = { error: "invalid_client", error_description: expect.any(String) };
const INVALID_GRANT = { error: "invalid_grant", error_description: expect.any(String) };

function expectIssued(res: { status: number; headers: Headers; body: TokenAnswer }, withRefresh = false) {
  expect(res.status).toBe(200);
  const now = Math.floor(Date.now() / 1000);
  expect(res.body).toEqual({
    access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
    token_type: "Bearer",
    expires_in: expect.any(Number),
    access_token_expires_at: expect.any(Number),
    ...(withRefresh ? { refresh_token: expect.stringMatching(/^rt_[\w-]{43}$/), refresh_token_expires_at: expect.any(Number) } : {}),
  });
  expect(res.body.expires_in).toBeGreaterThan(0);
  expect(Math.abs(res.body.access_token_expires_at - (now + res.body.expires_in))).toBeLessThanOrEqual(5);
  if (withRefresh) expect(res.body.refresh_token_expires_at!).toBeGreaterThan(res.body.access_token_expires_at);
  expect(res.headers.get("cache-control")).toBe("no-store");
}

async function getCaseFile(token: string | undefined, id: number = caseFileId) {
  const res = await fetch(`${gateway.url}/send/api/v1/casefiles/${id}`, { headers: token === undefined ? {} : { "X-Auth-Token": token } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  system = await startSystem(["casefile-worker"], {}, { JOB_POLL_LIMIT_PER_MINUTE: "0" });
  gateway = system.gateway;
  [a, b] = await Promise.all([newCustomer(), newCustomer()]);
  [tokenA, tokenB] = await Promise.all([getToken(gateway.url, a), getToken(gateway.url, b)]);
  [contract, appendix] = await Promise.all([makePdf("auth contract"), makePdf("auth appendix")]);
  const created = await postCreate(gateway.url, tokenA, validCaseFile(), files());
  expect(created.status).toBe(200);
  const job = created.body.jobs[0]!;
  const done = await waitForJob(gateway.url, job.uuid, job.payloadHash);
  expect(done.jobStatus).toBe("completed");
  caseFileId = done.result!.data.caseFile.id;
  const doc = await testDb().document.findFirstOrThrow({ where: { caseFileId, name: "contract.pdf" } });
  documentId = doc.id;
});

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

describe("POST /oauth/token, client_credentials", () => {
  it("issues a token for a JSON body", async () => {
    const res = await tokenRequest({ grant_type: "client_credentials", client_id: a.clientId, client_secret: a.clientSecret });
    expectIssued(res);
    expect((await getCaseFile(res.body.access_token)).status).toBe(200);
  });

  it("issues a token for a form body", async () => {
    const res = await tokenRequest(new URLSearchParams({ grant_type: "client_credentials", client_id: a.clientId, client_secret: a.clientSecret }));
    expectIssued(res);
    expect((await getCaseFile(res.body.access_token)).status).toBe(200);
  });

  it("issues a token for HTTP Basic client authentication", async () => {
    const basic = Buffer.from(`${encodeURIComponent(a.clientId)}:${encodeURIComponent(a.clientSecret)}`).toString("base64");
    const res = await tokenRequest(new URLSearchParams({ grant_type: "client_credentials" }), { authorization: `Basic ${basic}` });
    expectIssued(res);
    expect((await getCaseFile(res.body.access_token)).status).toBe(200);
  });

  it("refuses a wrong secret with 401 invalid_client in the OAuth 2.0 shape (RFC 6749 5.2)", async () => {
    const res = await tokenRequest({ grant_type: "client_credentials", client_id: a.clientId, client_secret: `${a.clientSecret}x` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID_CLIENT);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses another customer's secret, an unknown client and a wrong Basic secret with 401", async () => {
    const other = await tokenRequest({ grant_type: "client_credentials", client_id: a.clientId, client_secret: b.clientSecret });
    const unknown = await tokenRequest({ grant_type: "client_credentials", client_id: "cl_nobody", client_secret: a.clientSecret });
    const basic = Buffer.from(`${a.clientId}:wrong`).toString("base64");
    const wrongBasic = await tokenRequest(new URLSearchParams({ grant_type: "client_credentials" }), { authorization: `Basic ${basic}` });
    for (const res of [other, unknown, wrongBasic]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID_CLIENT);
    }
  });

  it("answers malformed HTTP Basic credentials with 401, never a 500", async () => {
    const headers = [
      `Basic ${Buffer.from(`${a.clientId}:%E0%A4%A`).toString("base64")}`, // broken percent-encoding
      `Basic ${Buffer.from(`%zz:${a.clientSecret}`).toString("base64")}`,
      "Basic !!!not-base64!!!",
      "Basic ",
    ];
    for (const authorization of headers) {
      const res = await tokenRequest(new URLSearchParams({ grant_type: "client_credentials" }), { authorization });
      expect(res.status).toBeLessThan(500);
      expect([400, 401]).toContain(res.status);
      expect(res.body).toMatchObject({ error: expect.stringMatching(/^invalid_(request|client)$/), error_description: expect.any(String) });
    }
  });

  it("answers an unsupported grant_type with 400 unsupported_grant_type", async () => {
    const res = await tokenRequest({ grant_type: "password", username: "u", password: "p", client_id: a.clientId, client_secret: a.clientSecret });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "unsupported_grant_type", error_description: expect.stringContaining("grant_type") });
  });

  it("answers a request without grant_type or credentials with 400 invalid_request naming the fields", async () => {
    const noGrant = await tokenRequest({ client_id: a.clientId, client_secret: a.clientSecret });
    const noSecret = await tokenRequest({ grant_type: "client_credentials", client_id: a.clientId });
    for (const res of [noGrant, noSecret]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_request", error_description: expect.any(String), errors: expect.any(Array) });
    }
    expect(JSON.stringify(noSecret.body)).toContain("client_secret");
  });

  it("answers a body that is not JSON with 400 invalid_request in the same shape", async () => {
    const res = await fetch(`${gateway.url}/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{grant_type" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_request", error_description: expect.any(String) });
  });

  it("issues no refresh token for client_credentials (RFC 6749 4.4.3)", async () => {
    const res = await tokenRequest({ grant_type: "client_credentials", client_id: a.clientId, client_secret: a.clientSecret });
    expectIssued(res, false);
  });
});

describe("POST /oauth/token, api_keys", () => {
  it("issues a token (and a refresh token) with created_at as ISO 8601", async () => {
    const res = await tokenRequest(apiKeysGrant(a));
    expectIssued(res, true);
    expect((await getCaseFile(res.body.access_token)).status).toBe(200);
  });

  it("issues a token with created_at as unix seconds (JSON number and form string)", async () => {
    const unix = Math.floor(Date.now() / 1000);
    expectIssued(await tokenRequest(apiKeysGrant(a, { createdAt: unix })), true);
    const form = apiKeysGrant(a, { createdAt: String(unix) });
    expectIssued(await tokenRequest(new URLSearchParams({ ...form, created_at: String(form.created_at) })), true);
  });

  it("issues a token with created_at as sdk-php writes it (`D M j Y H:i:s GMT+0000`) and as RFC 2822", async () => {
    const d = new Date();
    const day = d.toUTCString().slice(0, 3);
    const month = d.toUTCString().slice(8, 11);
    const pad = (n: number) => String(n).padStart(2, "0");
    const php = `${day} ${month} ${d.getUTCDate()} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} GMT+0000`;
    expectIssued(await tokenRequest(apiKeysGrant(a, { createdAt: php, nonce: randomBytes(64) })), true);
    expectIssued(await tokenRequest(apiKeysGrant(a, { createdAt: d.toUTCString() })), true);
  });

  it("refuses a reused nonce with 400 invalid_grant", async () => {
    const nonce = randomBytes(16);
    expectIssued(await tokenRequest(apiKeysGrant(a, { nonce })), true);
    // Same nonce, fresh created_at and a correct digest for it: still a replay.
    const again = await tokenRequest(apiKeysGrant(a, { nonce, createdAt: new Date(Date.now() + 1000).toISOString() }));
    expect(again.status).toBe(400);
    expect(again.body).toEqual(INVALID_GRANT);
  });

  it("refuses a captured nonce re-spelled (base64url, extra padding, whitespace): the replay check uses its bytes", async () => {
    // 20 bytes: base64 has one padding "=", and "+" or "/" with high probability once forced.
    const nonce = Buffer.from("fb3ff7ffbefbeffbbf7fdffffbffefbfff7fbeef", "hex");
    const first = apiKeysGrant(a, { nonce });
    expectIssued(await tokenRequest(first), true);
    const spellings = [
      nonce.toString("base64url"),
      `${nonce.toString("base64")}==`,
      ` ${nonce.toString("base64").slice(0, 8)}\n${nonce.toString("base64").slice(8)} `,
    ];
    for (const spelled of spellings) {
      expect(spelled).not.toBe(first.nonce);
      const again = await tokenRequest({ ...apiKeysGrant(a, { nonce, createdAt: new Date(Date.now() + 1000).toISOString() }), nonce: spelled });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: "invalid_grant", error_description: "Nonce already used" });
    }
  });

  it("refuses a nonce shorter than 8 bytes (and one decoding to nothing)", async () => {
    for (const nonce of [Buffer.alloc(0), randomBytes(4), randomBytes(7)]) {
      const grant = apiKeysGrant(a, { nonce });
      const res = await tokenRequest({ ...grant, nonce: nonce.length === 0 ? "====" : grant.nonce });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("at least 8") });
    }
  });

  it("refuses created_at 10 minutes in the past or the future with 400 invalid_grant", async () => {
    for (const offset of [-600_000, 600_000]) {
      const iso = await tokenRequest(apiKeysGrant(a, { createdAt: new Date(Date.now() + offset).toISOString() }));
      const unix = await tokenRequest(apiKeysGrant(a, { createdAt: Math.floor((Date.now() + offset) / 1000) }));
      for (const res of [iso, unix]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual(INVALID_GRANT);
      }
    }
  });

  it("refuses a wrong digest (400 invalid_grant), a wrong API key and a wrong client secret (401 invalid_client)", async () => {
    const wrongDigest = await tokenRequest(apiKeysGrant(a, { apiSecret: b.apiSecret }));
    const garbageDigest = await tokenRequest({ ...apiKeysGrant(a), digest: "not-base64-at-all!" });
    for (const res of [wrongDigest, garbageDigest]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_GRANT);
    }
    const wrongKey = await tokenRequest({ ...apiKeysGrant(a), key: b.apiKey });
    const wrongSecret = await tokenRequest({ ...apiKeysGrant(a), client_secret: b.clientSecret });
    for (const res of [wrongKey, wrongSecret]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID_CLIENT);
    }
  });
});

describe("POST /oauth/token, refresh_token (sdk-php's RefreshTokenMiddleware)", () => {
  const refresh = (creds: CustomerCredentials, token: string, extra: Record<string, string> = {}) =>
    tokenRequest({
      grant_type: "refresh_token",
      refresh_token: token,
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
      redirect_uri: "http://localhost/cb",
      ...extra,
    });

  it("exchanges a refresh token for a new pair; the new access token works", async () => {
    const first = await tokenRequest(apiKeysGrant(a));
    const next = await refresh(a, first.body.refresh_token!);
    expectIssued(next, true);
    expect(next.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await getCaseFile(next.body.access_token)).status).toBe(200);
  });

  it("rotates: a spent refresh token is refused, and presenting it revokes its whole family", async () => {
    const first = await tokenRequest(apiKeysGrant(a));
    const second = await refresh(a, first.body.refresh_token!);
    expectIssued(second, true);
    const replay = await refresh(a, first.body.refresh_token!);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual(INVALID_GRANT);
    // The leak is assumed: the holder's current token of the same family stops working too.
    const revoked = await refresh(a, second.body.refresh_token!);
    expect(revoked.status).toBe(400);
    expect(revoked.body).toEqual(INVALID_GRANT);
  });

  it("refuses another client's refresh token, an unknown one and an expired one; a wrong client secret is invalid_client", async () => {
    const tokenOfA = (await tokenRequest(apiKeysGrant(a))).body.refresh_token!;
    const byB = await refresh(b, tokenOfA);
    expect(byB.status).toBe(400);
    expect(byB.body).toEqual(INVALID_GRANT);
    const unknown = await refresh(a, "rt_nonexistent");
    expect(unknown.body).toEqual(INVALID_GRANT);
    const wrongSecret = await refresh(a, tokenOfA, { client_secret: b.clientSecret });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body).toEqual(INVALID_CLIENT);
    const expiring = (await tokenRequest(apiKeysGrant(a))).body.refresh_token!;
    await testDb().refreshToken.updateMany({
      where: { usedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await refresh(a, expiring);
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual(INVALID_GRANT);
    // The token that b could not use is still a's (it was refused without being spent)... but it expired above.
    expect(await testDb().refreshToken.count({ where: { revokedAt: null, usedAt: null, expiresAt: { gt: new Date() } } })).toBe(0);
  });

  it("stores refresh tokens as SHA-256 only", async () => {
    const token = (await tokenRequest(apiKeysGrant(a))).body.refresh_token!;
    const rows = await testDb().refreshToken.findMany();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.some((r) => r.tokenHash === createHash("sha256").update(token).digest("hex"))).toBe(true);
  });
});

describe("access tokens on the create and read endpoints", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const principal = () => ({ userId: a.userId, customerId: a.customerId, clientId: a.clientId });
  const cases: [string, () => string | undefined][] = [
    ["no token", () => undefined],
    ["an empty token", () => ""],
    ["a token that is not a JWT", () => "not-a-jwt"],
    ["an expired token", () => forgeJwt(gatewayClaims(principal(), { iat: now() - 7200, exp: now() - 60 }))],
    ["a token for another audience", () => forgeJwt(gatewayClaims(principal(), { aud: "some-other-api" }))],
    ["a token from another issuer", () => forgeJwt(gatewayClaims(principal(), { iss: "https://evil.example" }))],
    ["a token signed with another secret", () => forgeJwt(gatewayClaims(principal()), { secret: `${DEV_JWT.secret}-other` })],
    ["an unsigned token (alg none)", () => forgeJwt(gatewayClaims(principal()), { signWith: "none", headerAlg: "none" })],
    ["alg none with a valid HS256 signature", () => forgeJwt(gatewayClaims(principal()), { signWith: "HS256", headerAlg: "none" })],
    ["an HS512 token with the right secret", () => forgeJwt(gatewayClaims(principal()), { signWith: "HS512" })],
    ["an RS256 header over an HMAC signature", () => forgeJwt(gatewayClaims(principal()), { signWith: "HS256", headerAlg: "RS256" })],
    ["a token without the customer claim", () => forgeJwt(gatewayClaims(principal(), { cid: undefined }))],
    ["a token without exp", () => forgeJwt(gatewayClaims(principal(), { exp: undefined }))],
    [
      "a real token whose payload was changed",
      () => {
        const [h, , s] = tokenA.split(".");
        const claims = gatewayClaims({ ...principal(), customerId: b.customerId });
        return `${h}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${s}`;
      },
    ],
  ];

  it("accepts a hand-forged token with the right secret, issuer, audience and algorithm (the forge is sound)", async () => {
    const res = await getCaseFile(forgeJwt(gatewayClaims(principal())));
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(caseFileId);
  });

  it.each(cases)("GET /send/api/v1/casefiles/{id} refuses %s with 401", async (_name, make) => {
    const res = await getCaseFile(make());
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it.each(cases)("GET the document file refuses %s with 401", async (_name, make) => {
    const token = make();
    const res = await fetch(`${gateway.url}/send/api/v1/casefiles/${caseFileId}/documents/${documentId}/file`, {
      headers: token === undefined ? {} : { "X-Auth-Token": token },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(UNAUTHORIZED);
  });

  it.each(cases)("the create endpoint refuses %s with 401 and writes nothing", async (_name, make) => {
    const before = await testDb().creationJob.count({ where: { customerId: a.customerId } });
    const res = await postCreate(gateway.url, make() || undefined, validCaseFile(), files());
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(await testDb().creationJob.count({ where: { customerId: a.customerId } })).toBe(before);
  });

  it("takes the token from Authorization: Bearer on the create and read endpoints too (Penneo's Postman collection reads with it)", async () => {
    const res = await postCreate(gateway.url, undefined, validCaseFile({ reference: "bearer-create" }), files(), { authorization: `Bearer ${tokenA}` });
    expect(res.status).toBe(200);
    const read = await fetch(`${gateway.url}/send/api/v1/casefiles/${caseFileId}`, { headers: { authorization: `Bearer ${tokenA}` } });
    expect(read.status).toBe(200);
    const jwtStyle = await fetch(`${gateway.url}/send/api/v1/casefiles/${caseFileId}`, { headers: { authorization: "JWT", "x-auth-token": tokenA } });
    expect(jwtStyle.status).toBe(200);
  });
});

describe("tenancy", () => {
  it("customer A reads its case file and the document's PDF", async () => {
    const cf = await getCaseFile(tokenA);
    expect(cf.status).toBe(200);
    expect(cf.body).toMatchObject({ id: caseFileId, title: "Employment contract" });
    const file = await fetch(`${gateway.url}/send/api/v1/casefiles/${caseFileId}/documents/${documentId}/file`, { headers: { "X-Auth-Token": tokenA } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/^application\/pdf/);
    expect(Buffer.from(await file.arrayBuffer()).equals(contract)).toBe(true);
  });

  it("customer B gets 404 for A's case file and its document, exactly like for a case file that does not exist", async () => {
    const other = await getCaseFile(tokenB);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ error: "not_found", statusCode: 404 });
    const missing = await getCaseFile(tokenB, 2_000_000_000);
    expect(missing.status).toBe(404);
    expect(other.body).toEqual(missing.body);
    expect(JSON.stringify(other.body)).not.toContain("Employment contract");

    const file = await fetch(`${gateway.url}/send/api/v1/casefiles/${caseFileId}/documents/${documentId}/file`, { headers: { "X-Auth-Token": tokenB } });
    expect(file.status).toBe(404);
    expect(file.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await file.json()).toMatchObject({ error: "not_found", statusCode: 404 });
  });
});

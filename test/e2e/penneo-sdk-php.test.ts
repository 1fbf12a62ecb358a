import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { TEST_ENCRYPTION_KEY, testDb, closeTestDb } from "../support/api";
import { createAndAwaitCaseFile, phpApiKeysBody, phpRefreshBody, phpWsseHeaders, sendRaw } from "../support/penneo-clients";
import { makePdf } from "../support/pdf";
import { startReceiver, type Receiver } from "../support/receiver";
import { startSystem, type System } from "../support/system";

/*
 * The calls Penneo's PHP SDK (Penneo/sdk-php) makes, in its own wire format: OAuth through
 * OAuthApi (api_keys, then refresh_token) with its ApiKeysMiddleware / RefreshTokenMiddleware
 * adding `Authorization: Bearer` to every call on `/api/v3/`; WsseMiddleware on `/api/v1/`; and
 * its entity reads as ApiConnector and Entity build them (relative paths, plain JSON arrays for
 * linked entities, `{items}` or an array for findAll, raw bytes from getContent). The SDK is not
 * part of this repository; its requests are rebuilt here in our own words.
 */

let system: System;
let receiver: Receiver;
let creds: CustomerCredentials;
let pdf: Buffer;
let accessToken: string;
let refreshToken: string;
let caseFileId: number;

type Auth = () => Record<string, string>;
const oauth: Auth = () => ({ Authorization: `Bearer ${accessToken}` });
const wsse: Auth = () => phpWsseHeaders(creds.apiKey, creds.apiSecret);
// ApiConnector::getDefaultHeaders and the SDK's User-Agent.
const SDK_HEADERS = { "Content-type": "application/json", "User-Agent": "penneo/penneo-sdk-php v:4.0.0 using OAuth" };

const call = (auth: Auth, method: string, path: string, body?: string) => sendRaw(system.gateway.url, method, path, { ...SDK_HEADERS, ...auth() }, body);

async function token(body: Record<string, string>) {
  const res = await fetch(`${system.gateway.url}/oauth/token`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** The integrator's own create + poll, with the SDK's authentication on the request. */
const createAndAwait = (auth: Auth, title: string) =>
  createAndAwaitCaseFile(
    system.gateway.url,
    auth(),
    {
      caseFile: {
        title,
        signers: [{ name: "Søren Ødegård", email: "soren@example.com" }],
        documents: [{ title, name: "contract.pdf", metaData: '{"form":"data"}' }],
      },
    },
    { name: "contract.pdf", content: pdf },
  );

beforeAll(async () => {
  receiver = await startReceiver();
  system = await startSystem(["casefile-worker", "webhook-dispatcher"]);
  creds = await createCustomer(testDb(), { name: "sdk-php customer" }, TEST_ENCRYPTION_KEY);
  pdf = await makePdf("sdk-php contract");
}, 60_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  await closeTestDb();
});

describe("sdk-php OAuth (OAuthApi, ApiKeysMiddleware, RefreshTokenMiddleware)", () => {
  it("postApiKeyExchange: the 64-byte nonce and PHP date format are accepted; access_token_expires_at and a refresh token answer", async () => {
    const res = await token(phpApiKeysBody(creds));
    expect(res.status).toBe(200);
    // PenneoTokens reads these four fields.
    expect(res.json).toMatchObject({
      access_token: expect.any(String),
      access_token_expires_at: expect.any(Number),
      refresh_token: expect.any(String),
      refresh_token_expires_at: expect.any(Number),
    });
    accessToken = String(res.json.access_token);
    refreshToken = String(res.json.refresh_token);
  });

  it("postTokenRefresh: grant_type=refresh_token with redirect_uri answers a new pair", async () => {
    const res = await token(phpRefreshBody(creds, refreshToken));
    expect(res.status).toBe(200);
    expect(res.json.refresh_token).not.toBe(refreshToken);
    accessToken = String(res.json.access_token);
    refreshToken = String(res.json.refresh_token);
  });

  it("handleBadResponse reads error and error_description (RFC 6749)", async () => {
    const res = await token({ ...phpApiKeysBody(creds), client_secret: "wrong" });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: "invalid_client", error_description: expect.any(String) });
  });

  it("a Bearer request creates a case file at the create endpoint; the job completes", async () => {
    caseFileId = await createAndAwait(oauth, "sdk-php OAuth contract");
  });
});

describe("sdk-php entities on /api/v3/ with OAuth", () => {
  it("CaseFile::find(id) reads casefiles/{id}: title, status, the unix created time and the entity fields", async () => {
    const res = await call(oauth, "GET", `/api/v3/casefiles/${caseFileId}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: caseFileId,
      title: "sdk-php OAuth contract",
      status: 1,
      created: expect.any(Number),
      visibilityMode: 0,
      sensitiveData: false,
    });
  });

  it("getDocuments() and getSigners() read casefiles/{id}/documents|signers as plain JSON arrays (Entity::getEntities)", async () => {
    const docs = await call(oauth, "GET", `/api/v3/casefiles/${caseFileId}/documents`);
    expect(docs.status).toBe(200);
    expect(Array.isArray(docs.json)).toBe(true);
    expect(docs.json).toEqual([
      expect.objectContaining({ id: expect.any(Number), title: "sdk-php OAuth contract", metaData: '{"form":"data"}', signType: "signable", status: 1 }),
    ]);
    const signers = await call(oauth, "GET", `/api/v3/casefiles/${caseFileId}/signers`);
    expect(Array.isArray(signers.json)).toBe(true);
    expect(signers.json).toEqual([expect.objectContaining({ id: expect.any(Number), name: "Søren Ødegård", status: 0 })]);
  });

  it("Signer::getSigningRequest() reads casefiles/{cf}/signers/{id}/signingrequests: a list whose first entry has the status", async () => {
    const signers = (await call(oauth, "GET", `/api/v3/casefiles/${caseFileId}/signers`)).json as { id: number }[];
    const res = await call(oauth, "GET", `/api/v3/casefiles/${caseFileId}/signers/${signers[0]!.id}/signingrequests`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual([expect.objectContaining({ id: signers[0]!.id, status: 1, email: "soren@example.com" })]);
  });

  it("Document::getContent() reads documents/{id}/content as raw bytes (no Accept header); getContent(false) sends signed=false", async () => {
    const docs = (await call(oauth, "GET", `/api/v3/casefiles/${caseFileId}/documents`)).json as { id: number }[];
    const content = await call(oauth, "GET", `/api/v3/documents/${docs[0]!.id}/content`);
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toContain("application/pdf");
    expect(content.buf.equals(pdf)).toBe(true);
    const original = await call(oauth, "GET", `/api/v3/documents/${docs[0]!.id}/content?signed=false`);
    expect(original.buf.equals(pdf)).toBe(true);
  });
});

describe("sdk-php WSSE (WsseMiddleware) on /api/v1/", () => {
  it("every call carries a fresh X-WSSE (128-hex nonce, date('r') Created) and Authorization: WSSE profile=...: all are accepted", async () => {
    const id = await createAndAwait(wsse, "sdk-php WSSE contract");
    const cf = await call(wsse, "GET", `/api/v1/casefiles/${id}`);
    expect(cf.status).toBe(200);
    expect(cf.json).toMatchObject({ id, title: "sdk-php WSSE contract" });
    expect((await call(wsse, "GET", `/api/v1/casefiles/${id}/documents`)).status).toBe(200);
  });

  it("a replayed X-WSSE header is refused with 401", async () => {
    const headers = wsse();
    const first = await fetch(`${system.gateway.url}/api/v1/casefiles/${caseFileId}`, { headers });
    const again = await fetch(`${system.gateway.url}/api/v1/casefiles/${caseFileId}`, { headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: "unauthorized", message: expect.stringContaining("Nonce") });
  });
});

describe("sdk-php WebhookSubscription", () => {
  let subscriptionId: string;

  it("persist() POSTs {eventTypes, endpoint, isActive} to the absolute path and reads id and secret back", async () => {
    const res = await call(
      oauth,
      "POST",
      "/webhook/api/v1/subscriptions",
      JSON.stringify({ eventTypes: ["webhook.subscription.test", "sign.signer.requestSent"], endpoint: receiver.url("/php"), isActive: true }),
    );
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ id: expect.any(String), secret: expect.any(String), customerId: creds.customerId, isActive: true });
    subscriptionId = (res.json as { id: string }).id;
  });

  it("find(id) and findAll() (which takes {items})", async () => {
    expect((await call(oauth, "GET", `/webhook/api/v1/subscriptions/${subscriptionId}`)).json).toMatchObject({ id: subscriptionId });
    const all = (await call(oauth, "GET", "/webhook/api/v1/subscriptions")).json as { items: { id: string }[] };
    expect(all.items.map((s) => s.id)).toEqual([subscriptionId]);
  });

  it("test() POSTs to .../subscriptions/test with no body (Content-type: application/json): the endpoint gets the test event", async () => {
    const res = await call(oauth, "POST", "/webhook/api/v1/subscriptions/test");
    expect(res.status).toBe(204);
    const [delivery] = await receiver.waitFor("/php", 1, 10_000);
    expect(JSON.parse(delivery!.rawBody)).toMatchObject({ topic: "subscription", eventType: "test" });
  });

  it("update (PUT {eventTypes, endpoint, isActive}) and delete()", async () => {
    const put = await call(
      oauth,
      "PUT",
      `/webhook/api/v1/subscriptions/${subscriptionId}`,
      JSON.stringify({ eventTypes: ["sign.casefile.completed"], endpoint: receiver.url("/php"), isActive: false }),
    );
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ isActive: false, eventTypes: ["sign.casefile.completed"] });
    expect((await call(oauth, "DELETE", `/webhook/api/v1/subscriptions/${subscriptionId}`)).status).toBe(204);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Redis } from "ioredis";
import os from "node:os";
import path from "node:path";
import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { EsignApiError, EsignClient, JobFailedError, JobTimeoutError, parseWebhookEvent, verifyWebhook, type CaseFileInput, type FetchFn } from "@esign/sdk";
import { TEST_ENCRYPTION_KEY } from "../support/api";
import { makePdf } from "../support/pdf";
import { startReceiver, type Receiver } from "../support/receiver";
import { startService, type ServiceProcess } from "../support/services";
import { startSystem, type System } from "../support/system";
import { createWorld, eventually, type World } from "../support/webhook-world";

/*
 * The SDK against the running services. The system gets a database and queue prefix of its own (a
 * "world"): its webhook dispatcher relays every event of its database, which must not touch the
 * deliveries other test files set up in the run's shared database.
 *
 * Two gateways share that world: `system.gateway` with JOB_POLL_INTERVAL_MS=0 (fast tests) and
 * `strict`, started with the DEFAULT 5 s poll interval and 61 s tokens.
 */

let world: World;
let system: System;
let strict: ServiceProcess;
let receiver: Receiver;
let creds: CustomerCredentials;
let tmp: string;
let contract: Buffer;
let appendix: Buffer;
let contractPath: string;
let appendixPath: string;

const JOB_STATUS = "/send/api/v1/queue/public/status";

interface Call {
  method: string;
  path: string;
  status: number;
  sentAt: number;
  answeredAt: number;
  headers: Headers;
  body: unknown;
  retryAfter: string | null;
}

/** Global fetch, recording every exchange; `tamper` may rewrite a request before it goes out. */
function recordingFetch(calls: Call[], tamper?: (path: string, headers: Headers, index: number) => void): FetchFn {
  return async (input, init) => {
    const url = new URL(input);
    const headers = new Headers(init.headers);
    const index = calls.filter((c) => c.path !== "/oauth/token").length;
    if (url.pathname !== "/oauth/token") tamper?.(url.pathname, headers, index);
    const sentAt = Date.now();
    const res = await fetch(input, { ...init, headers });
    calls.push({
      method: init.method ?? "GET",
      path: url.pathname,
      status: res.status,
      sentAt,
      answeredAt: Date.now(),
      headers,
      body: typeof init.body === "string" ? JSON.parse(init.body) : init.body,
      retryAfter: res.headers.get("retry-after"),
    });
    return res;
  };
}

const tokenCalls = (calls: Call[]) => calls.filter((c) => c.path === "/oauth/token");
const apiCalls = (calls: Call[]) => calls.filter((c) => c.path !== "/oauth/token");
const jwtClaims = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, number | string>;

function client(extra: Partial<ConstructorParameters<typeof EsignClient>[0]> = {}): EsignClient {
  return new EsignClient({ baseUrl: system.gateway.url, credentials: { clientId: creds.clientId, clientSecret: creds.clientSecret }, ...extra });
}

function caseFile(over: Partial<CaseFileInput> = {}): CaseFileInput {
  return {
    title: "SDK contract",
    language: "en",
    signers: [
      { name: "Alice Andersen", email: "alice@example.com", role: "Employee", enableInsecureSigning: true, insecureSigningMethods: ["text"] },
      { name: "Bob Berg", email: "bob@example.com", role: "Manager", signOrder: 1, enableInsecureSigning: true, insecureSigningMethods: ["draw"] },
    ],
    documents: [
      { title: "Contract", name: "contract.pdf", roles: ["Employee", "Manager"] },
      { title: "Appendix", name: "appendix.pdf", signable: false },
    ],
    ...over,
  };
}

beforeAll(async () => {
  world = await createWorld("sdk");
  receiver = await startReceiver();
  [system, strict] = await Promise.all([
    startSystem(["casefile-worker", "webhook-dispatcher"], world.env(), { JOB_POLL_LIMIT_PER_MINUTE: "0" }),
    startService("api-gateway", world.env({ JWT_TTL_SECONDS: "61" })),
  ]);
  creds = await createCustomer(world.db, { name: "SDK customer" }, TEST_ENCRYPTION_KEY);
  tmp = mkdtempSync(path.join(os.tmpdir(), "esign-sdk-"));
  [contract, appendix] = await Promise.all([makePdf("SDK contract"), makePdf("SDK appendix", 2)]);
  contractPath = path.join(tmp, "contract.pdf");
  appendixPath = path.join(tmp, "appendix.pdf");
  writeFileSync(contractPath, contract);
  writeFileSync(appendixPath, appendix);
}, 90_000);

afterAll(async () => {
  await Promise.all([system?.stop(), strict?.stop()]);
  await receiver?.close();
  await world?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("tokens", () => {
  it("client_credentials: one token request, shared by concurrent callers and reused afterwards", async () => {
    const calls: Call[] = [];
    const c = client({ fetch: recordingFetch(calls) });
    await Promise.all(Array.from({ length: 6 }, () => c.subscriptions.list()));
    await c.subscriptions.list();
    expect(tokenCalls(calls)).toHaveLength(1);
    expect(tokenCalls(calls)[0]!.body).toEqual({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret });
    expect(apiCalls(calls)).toHaveLength(7);
    for (const call of apiCalls(calls)) {
      expect(call.status).toBe(200);
      // The spec's webhook authentication: `Authorization: JWT` plus the token in X-Auth-Token.
      expect(call.headers.get("authorization")).toBe("JWT");
      expect(call.headers.get("x-auth-token")).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    }
  });

  it("api_keys: a fresh nonce and digest per token request; a wrong API secret is a typed 400 invalid_grant", async () => {
    const calls: Call[] = [];
    const apiKeyCreds = { clientId: creds.clientId, clientSecret: creds.clientSecret, apiKey: creds.apiKey, apiSecret: creds.apiSecret };
    const a = client({ credentials: apiKeyCreds, fetch: recordingFetch(calls) });
    const b = client({ credentials: apiKeyCreds, fetch: recordingFetch(calls) });
    const [ta, tb] = await Promise.all([a.getAccessToken(), b.getAccessToken()]);
    expect(jwtClaims(ta)).toMatchObject({ sub: String(creds.userId), cid: creds.customerId });
    expect(jwtClaims(tb)).toMatchObject({ sub: String(creds.userId), cid: creds.customerId });
    const bodies = tokenCalls(calls).map((c) => c.body as Record<string, string>);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body).toMatchObject({ grant_type: "api_keys", client_id: creds.clientId, key: creds.apiKey });
      expect(Buffer.from(body.nonce!, "base64")).toHaveLength(16);
      expect(Math.abs(Date.parse(body.created_at!) - Date.now())).toBeLessThan(60_000);
      expect(body).not.toHaveProperty("apiSecret");
    }
    expect(bodies[0]!.nonce).not.toBe(bodies[1]!.nonce);
    // The api_keys token works like any other.
    expect(Array.isArray(await a.subscriptions.list())).toBe(true);

    const wrong = client({ credentials: { ...apiKeyCreds, apiSecret: "not-the-secret" } });
    const err = await wrong.subscriptions.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EsignApiError);
    expect(err).toMatchObject({ status: 400, code: "invalid_grant", message: "Invalid digest" });
  });

  it("refreshes before expiry: 61 s tokens with a 60 s margin are replaced after one second", async () => {
    const calls: Call[] = [];
    const c = new EsignClient({
      baseUrl: strict.url,
      credentials: { clientId: creds.clientId, clientSecret: creds.clientSecret },
      refreshMarginSeconds: 60,
      fetch: recordingFetch(calls),
    });
    const first = await c.getAccessToken();
    const claims = jwtClaims(first);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(61);
    await c.subscriptions.list();
    await new Promise((r) => setTimeout(r, 1_100));
    await c.subscriptions.list();
    await new Promise((r) => setTimeout(r, 1_100));
    await c.subscriptions.list();
    // Each call after the one-second window got a new token; none of them was ever refused.
    expect(tokenCalls(calls).length).toBeGreaterThanOrEqual(3);
    expect(apiCalls(calls).map((x) => x.status)).toEqual([200, 200, 200]);
    const used = apiCalls(calls).map((x) => x.headers.get("x-auth-token"));
    expect(new Set(used.slice(1)).size).toBe(2);
    expect(used[2]).not.toBe(first);
  });

  it("with an injected clock: the token is reused until refreshMarginSeconds before exp, then refreshed", async () => {
    let now = Date.now();
    const calls: Call[] = [];
    const c = client({ now: () => now, refreshMarginSeconds: 60, fetch: recordingFetch(calls) });
    const token = await c.getAccessToken();
    const ttl = Number(jwtClaims(token).exp) - Number(jwtClaims(token).iat);
    now += (ttl - 62) * 1000;
    expect(await c.getAccessToken()).toBe(token);
    await c.subscriptions.list();
    expect(tokenCalls(calls)).toHaveLength(1);
    now += 3_000;
    await c.subscriptions.list();
    expect(tokenCalls(calls)).toHaveLength(2);
    expect(apiCalls(calls)[1]!.headers.get("x-auth-token")).not.toBe(token);
  });

  it("after a 401 it refreshes once and retries once", async () => {
    const calls: Call[] = [];
    const c = client({ fetch: recordingFetch(calls, (_p, h, i) => i === 0 && h.set("X-Auth-Token", "revoked.token.value")) });
    const subs = await c.subscriptions.list();
    expect(Array.isArray(subs)).toBe(true);
    expect(apiCalls(calls).map((x) => x.status)).toEqual([401, 200]);
    expect(tokenCalls(calls)).toHaveLength(2);
  });

  it("a 401 that persists after the retry is an EsignApiError (no loop)", async () => {
    const calls: Call[] = [];
    const c = client({ fetch: recordingFetch(calls, (_p, h) => h.set("X-Auth-Token", "always.bad.token")) });
    const err = await c.getCaseFile(1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EsignApiError);
    expect(err).toMatchObject({ status: 401, code: "unauthorized" });
    expect((err as EsignApiError).requestId).toEqual(expect.any(String));
    expect(apiCalls(calls)).toHaveLength(2);
    expect(tokenCalls(calls)).toHaveLength(2);
  });
});

describe("case files", () => {
  it("creates from file paths, waits for the job and reads the case file and its documents", async () => {
    const c = client();
    const created = await c.createCaseFile(caseFile(), [{ name: "contract.pdf", path: contractPath }, { path: appendixPath }]);
    expect(created).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      payloadHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.any(String),
    });

    const job = await c.waitForJob(created.uuid, created.payloadHash, { minIntervalMs: 0, timeoutMs: 20_000 });
    expect(job.jobStatus).toBe("completed");
    expect(job.result.data.caseFile).toEqual({ id: expect.any(Number), status: 1 });
    expect(job.result.data.signingLinks.map((l) => [l.name, l.role])).toEqual([
      ["Alice Andersen", "Employee"],
      ["Bob Berg", "Manager"],
    ]);
    for (const l of job.result.data.signingLinks) expect(l.signingLink).toMatch(new RegExp(`^${system.gateway.url}/sign/[A-Za-z0-9_-]{43}$`));

    const cf = await c.getCaseFile(job.result.data.caseFile.id);
    expect(cf).toMatchObject({ id: job.result.data.caseFile.id, title: "SDK contract", status: 1 });
    expect(cf.documents.map((d) => [d.name, d.signable])).toEqual([
      ["contract.pdf", true],
      ["appendix.pdf", false],
    ]);
    const pdf = await c.downloadDocument(cf.id, cf.documents[1]!.id);
    expect(Buffer.isBuffer(pdf)).toBe(true);
    expect(pdf.equals(appendix)).toBe(true);
  });

  it("creates from Buffer and Uint8Array contents: the same request hashes the same as from paths; Idempotency-Key replays", async () => {
    const c = client();
    const data = caseFile({ reference: "same-bytes" });
    const fromPaths = await c.createCaseFile(data, [
      { name: "contract.pdf", path: contractPath },
      { name: "appendix.pdf", path: appendixPath },
    ]);
    const fromMemory = await c.createCaseFile(data, [
      { name: "contract.pdf", content: contract },
      { name: "appendix.pdf", content: new Uint8Array(appendix) },
    ]);
    expect(fromMemory.payloadHash).toBe(fromPaths.payloadHash);
    expect(fromMemory.uuid).not.toBe(fromPaths.uuid);

    const key = `sdk-${Date.now()}`;
    const once = await c.createCaseFile(
      data,
      [
        { name: "contract.pdf", content: contract },
        { name: "appendix.pdf", content: appendix },
      ],
      { idempotencyKey: key },
    );
    const again = await c.createCaseFile(
      data,
      [
        { name: "contract.pdf", content: contract },
        { name: "appendix.pdf", content: appendix },
      ],
      { idempotencyKey: key },
    );
    expect(again).toEqual(once);
    const other = await c
      .createCaseFile(
        { ...data, title: "Another" },
        [
          { name: "contract.pdf", content: contract },
          { name: "appendix.pdf", content: appendix },
        ],
        { idempotencyKey: key },
      )
      .catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 422, code: "idempotency_mismatch" });
    const done = await c.waitForJob(fromPaths.uuid, fromPaths.payloadHash, { minIntervalMs: 0, timeoutMs: 20_000 });
    expect(done.result.data.signingLinks).toHaveLength(2);
    // The same request again, moments later and without a key of its own, is Penneo's aborted_duplicated.
    const repeat = await c.waitForJob(fromMemory.uuid, fromMemory.payloadHash, { minIntervalMs: 0, timeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(repeat).toBeInstanceOf(JobFailedError);
    expect((repeat as JobFailedError).job.jobStatus).toBe("aborted_duplicated");
    expect((repeat as JobFailedError).errorMessage).toContain(fromPaths.uuid);
  });

  it("a 400 is an EsignApiError listing every failing field", async () => {
    const c = client();
    const bad = caseFile({
      signers: [{ name: "Alice", email: "not-an-email", role: "ab" }],
      documents: [{ title: "Contract", name: "missing.pdf" }],
    });
    const err = await c.createCaseFile(bad, [{ name: "contract.pdf", content: contract }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EsignApiError);
    const apiErr = err as EsignApiError;
    expect(apiErr).toMatchObject({ status: 400, code: "validation_failed" });
    expect(apiErr.message).toEqual(expect.any(String));
    const paths = (apiErr.errors ?? []).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["caseFile.signers[0].email", "caseFile.signers[0].role"]));
    expect(paths.some((p) => p.startsWith("caseFile.documents[0]"))).toBe(true);
    for (const e of apiErr.errors ?? []) expect(e).toEqual({ path: expect.any(String), code: expect.any(String), message: expect.any(String) });
  });

  it("a failed job rejects with JobFailedError carrying errorMessage (eboks signer, customer without the add-on)", async () => {
    const c = client();
    const created = await c.createCaseFile(
      caseFile({ signers: [{ name: "Eva Eboks", channel: "eboks", cpr: "0101901234" }], documents: [{ title: "Contract", name: "contract.pdf" }] }),
      [{ name: "contract.pdf", content: contract }],
    );
    const err = await c.waitForJob(created.uuid, created.payloadHash, { minIntervalMs: 0, timeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
    const failed = err as JobFailedError;
    expect(failed.uuid).toBe(created.uuid);
    expect(failed.errorMessage).toMatch(/add-on is disabled/);
    expect(failed.job.jobStatus).toBe("failed");
  });

  it("unknown jobs and other customers' case files are EsignApiError 404", async () => {
    const c = client();
    const job = await c.getJob("00000000-0000-4000-8000-000000000000", "0".repeat(64)).catch((e: unknown) => e);
    expect(job).toMatchObject({ status: 404, code: "not_found", message: "Job not found" });
    const waited = await c.waitForJob("00000000-0000-4000-8000-000000000000", "0".repeat(64), { minIntervalMs: 0 }).catch((e: unknown) => e);
    expect(waited).toMatchObject({ status: 404 });
    const cf = await c.getCaseFile(2_000_000_000).catch((e: unknown) => e);
    expect(cf).toBeInstanceOf(EsignApiError);
    expect(cf).toMatchObject({ status: 404, code: "not_found" });
  });
});

describe("waitForJob against a gateway with the default poll limit (20 a minute per job)", () => {
  const files = () => [
    { name: "contract.pdf", content: contract },
    { name: "appendix.pdf", content: appendix },
  ];
  const strictClient = (calls: Call[]) =>
    new EsignClient({ baseUrl: strict.url, credentials: { clientId: creds.clientId, clientSecret: creds.clientSecret }, fetch: recordingFetch(calls) });
  const polls = (calls: Call[]) => calls.filter((c) => c.path === JOB_STATUS);

  it("keeps >= 5 s between an answered poll and the next one and never gets a 429", async () => {
    const calls: Call[] = [];
    const c = strictClient(calls);
    const created = await c.createCaseFile(caseFile({ reference: "spacing" }), files());
    const first = await c.getJob(created.uuid, created.payloadHash);
    expect(["pending", "processing", "completed"]).toContain(first.jobStatus);
    const started = Date.now();
    const job = await c.waitForJob(created.uuid, created.payloadHash, { timeoutMs: 40_000 });
    expect(job.jobStatus).toBe("completed");
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    const seen = polls(calls);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.map((p) => p.status).every((s) => s === 200)).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.sentAt - seen[i - 1]!.answeredAt).toBeGreaterThanOrEqual(5_000);
  }, 60_000);

  it("honours Retry-After when other pollers used up the job's minute, then completes", async () => {
    const calls: Call[] = [];
    const c = strictClient(calls);
    const created = await c.createCaseFile(caseFile({ reference: "retry-after" }), files());
    // Other processes poll first, 20 times; this client knows nothing of it and is answered 429.
    for (let i = 0; i < 20; i++) {
      const other = await fetch(`${strict.url}${JOB_STATUS}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uuid: created.uuid, payloadHash: created.payloadHash }),
      });
      expect(other.status).toBe(200);
    }
    // The minute is made to end in about 2 s, instead of waiting for it.
    const redis = new Redis(world.redisUrl);
    try {
      const keys = await redis.keys(`${world.queuePrefix}:rl:job-poll*${created.uuid}`);
      expect(keys).toHaveLength(1);
      await redis.pexpire(keys[0]!, 2_000);
    } finally {
      redis.disconnect();
    }
    const job = await c.waitForJob(created.uuid, created.payloadHash, { timeoutMs: 40_000 });
    expect(job.jobStatus).toBe("completed");
    const seen = polls(calls);
    expect(seen.map((p) => p.status)).toEqual([429, 200]);
    const retryAfter = Number(seen[0]!.retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    // The retry went out no sooner than Retry-After said.
    expect(seen[1]!.sentAt - seen[0]!.answeredAt).toBeGreaterThanOrEqual(retryAfter * 1000);
  }, 60_000);

  it("times out cleanly with JobTimeoutError, without polling early; an abort signal rejects at once", async () => {
    const calls: Call[] = [];
    const c = strictClient(calls);
    const created = await c.createCaseFile(caseFile({ reference: "timeout" }), files());
    await c.getJob(created.uuid, created.payloadHash);
    const t0 = Date.now();
    const err = await c.waitForJob(created.uuid, created.payloadHash, { timeoutMs: 1_000 }).catch((e: unknown) => e);
    const took = Date.now() - t0;
    expect(err).toBeInstanceOf(JobTimeoutError);
    expect(err).toMatchObject({ uuid: created.uuid, timeoutMs: 1_000 });
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(2_500);
    expect(polls(calls)).toHaveLength(1);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const t1 = Date.now();
    const aborted = await c.waitForJob(created.uuid, created.payloadHash, { signal: controller.signal }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe("AbortError");
    expect(Date.now() - t1).toBeLessThan(1_500);
    expect(polls(calls)).toHaveLength(1);
  });
});

describe("webhook subscriptions", () => {
  it("create, get, list, update, delete", async () => {
    const c = client();
    const sub = await c.subscriptions.create({ eventTypes: ["sign.casefile.completed", "sign.signer.signed"], endpoint: receiver.url("/crud") });
    expect(sub).toMatchObject({
      customerId: creds.customerId,
      isActive: true,
      endpoint: receiver.url("/crud"),
      eventTypes: ["sign.casefile.completed", "sign.signer.signed"],
    });
    expect(sub.secret.length).toBeGreaterThanOrEqual(16);
    expect(await c.subscriptions.get(sub.id)).toEqual(sub);
    expect((await c.subscriptions.list()).map((s) => s.id)).toContain(sub.id);

    const off = await c.subscriptions.update(sub.id, { isActive: false, eventTypes: ["sign.casefile.expired"] });
    expect(off).toMatchObject({ id: sub.id, isActive: false, eventTypes: ["sign.casefile.expired"], secret: sub.secret });
    const on = await c.subscriptions.update(sub.id, { isActive: true });
    expect(on.isActive).toBe(true);

    await c.subscriptions.delete(sub.id);
    const gone = await c.subscriptions.get(sub.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(EsignApiError);
    expect(gone).toMatchObject({ status: 404, code: "not_found" });
    expect((await c.subscriptions.list()).map((s) => s.id)).not.toContain(sub.id);
  });

  it("refuses bad input with field errors", async () => {
    const err = await client()
      .subscriptions.create({ eventTypes: ["sign.casefile.nope"], endpoint: "not a url" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EsignApiError);
    expect(err).toMatchObject({ status: 400, code: "validation_failed" });
    expect((err as EsignApiError).errors?.map((e) => e.path).sort()).toEqual(["endpoint", "eventTypes[0]"]);
  });

  it("sends test events that verify with the re-exported verifier; lists and iterates deliveries; redelivers", async () => {
    const c = client();
    const sub = await c.subscriptions.create({ eventTypes: ["sign.casefile.completed"], endpoint: receiver.url("/deliveries") });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { eventId } = await c.subscriptions.sendTest(sub.id);
        ids.push(eventId);
        await receiver.waitFor("/deliveries", i + 1);
      }
      const received = receiver.requests("/deliveries");
      expect(received.map((r) => r.headers["x-event-id"])).toEqual(ids);
      for (const r of received) {
        const check = await verifyWebhook({ secret: sub.secret, rawBody: r.rawBody, headers: r.headers });
        expect(check).toMatchObject({ ok: true, eventType: "webhook.subscription.test" });
        expect(parseWebhookEvent(r.rawBody)).toMatchObject({ topic: "subscription", eventType: "test" });
      }

      // Attempts are logged once the dispatcher has the answer.
      const page = await eventually(
        async () => {
          const p = await c.subscriptions.deliveries(sub.id, { limit: 100 });
          return p.data.length === 3 ? p : undefined;
        },
        10_000,
        "three logged attempts",
      );
      expect(page.nextCursor).toBeNull();
      expect(page.data.map((a) => a.eventId)).toEqual([...ids].reverse());
      for (const a of page.data) expect(a).toMatchObject({ attemptNumber: 1, outcome: "success", httpStatus: 200 });

      const pages = [];
      for await (const p of c.subscriptions.deliveryPages(sub.id, { limit: 1 })) pages.push(p);
      expect(pages.map((p) => p.data.length)).toEqual([1, 1, 1]);
      const iterated = [];
      for await (const a of c.subscriptions.iterateDeliveries(sub.id, { limit: 2 })) iterated.push(a);
      expect(iterated).toEqual(page.data);

      const again = await c.subscriptions.redeliver(sub.id, ids[0]!);
      expect(again).toEqual({ eventId: ids[0] });
      const all = await receiver.waitFor("/deliveries", 4);
      expect(all[3]!.headers["x-event-id"]).toBe(ids[0]);
      expect(await verifyWebhook({ secret: sub.secret, rawBody: all[3]!.rawBody, headers: all[3]!.headers })).toMatchObject({ ok: true });

      const unknown = await c.subscriptions.redeliver(sub.id, "00000000-0000-4000-8000-000000000000").catch((e: unknown) => e);
      expect(unknown).toMatchObject({ status: 404 });
    } finally {
      await c.subscriptions.delete(sub.id);
    }
  });
});

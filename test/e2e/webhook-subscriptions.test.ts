import { randomUUID } from "node:crypto";
import { decryptSecret } from "@esign/db";
import { closeTestDb, getToken, newCustomer, TEST_ENCRYPTION_KEY, testDb } from "../support/api";
import { startService, type ServiceProcess } from "../support/services";
import { subscriptionClient, SUBSCRIPTIONS, type AttemptAnswer, type SubscriptionClient } from "../support/subscription-api";

let gateway: ServiceProcess;

// Nothing listens on port 9 (discard); the dispatcher is not running in this file anyway. One
// endpoint per subscription: a second subscription of an account to the same endpoint is a 409.
let endpoints = 0;
const nextEndpoint = () => `http://127.0.0.1:9/hook/${++endpoints}`;
const valid = (over: Record<string, unknown> = {}) => ({ eventTypes: ["sign.casefile.completed"], endpoint: nextEndpoint(), ...over });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Tenant {
  customerId: number;
  userId: number;
  token: string;
  api: SubscriptionClient;
}

/** A fresh customer per test keeps the limit of five from leaking between tests. */
async function tenant(baseUrl = gateway.url): Promise<Tenant> {
  const creds = await newCustomer();
  const token = await getToken(baseUrl, creds);
  return { customerId: creds.customerId, userId: creds.userId, token, api: subscriptionClient(baseUrl, token) };
}

async function createOk(t: Tenant, body: unknown = valid()) {
  const a = await t.api.create(body);
  if (a.status !== 201) throw new Error(`create answered ${a.status}: ${JSON.stringify(a.body)}`);
  return a.body;
}

const activeCount = (customerId: number) => testDb().webhookSubscription.count({ where: { customerId, isActive: true, deletedAt: null } });

beforeAll(async () => {
  gateway = await startService("api-gateway");
});

afterAll(async () => {
  await gateway?.stop();
  await closeTestDb();
});

describe("create, read, edit, delete", () => {
  it("creates (201) with the contract's shape; the secret is answered in plain text and stored encrypted", async () => {
    const t = await tenant();
    const body = valid({ eventTypes: ["sign.signer.signed", "sign.casefile.completed", "sign.signer.signed"] });
    const a = await t.api.create(body);
    expect(a.status).toBe(201);
    // Penneo's fields, then this platform's (issue 29: throttle, ordering, rotation overlap).
    expect(Object.keys(a.body).sort()).toEqual(
      [
        "createdAt",
        "customerId",
        "endpoint",
        "eventTypes",
        "id",
        "isActive",
        "secret",
        "updatedAt",
        "maxPerSecond",
        "ordered",
        "previousSecretExpiresAt",
      ].sort(),
    );
    expect(a.body).toMatchObject({ customerId: t.customerId, isActive: true, endpoint: body.endpoint });
    expect(a.body.eventTypes).toEqual(["sign.signer.signed", "sign.casefile.completed"]);
    expect(a.body.id).toMatch(UUID);
    expect(a.body.createdAt).toMatch(ISO);
    expect(a.body.updatedAt).toMatch(ISO);
    expect(a.body.secret.length).toBeGreaterThanOrEqual(16);

    const row = await testDb().webhookSubscription.findUniqueOrThrow({ where: { id: a.body.id } });
    expect(row.createdByUserId).toBe(t.userId);
    expect(row.secretEnc).not.toContain(a.body.secret);
    expect(JSON.stringify(row)).not.toContain(a.body.secret);
    expect(decryptSecret(row.secretEnc, TEST_ENCRYPTION_KEY)).toBe(a.body.secret);

    // Each subscription has its own secret.
    const other = await createOk(t);
    expect(other.secret).not.toBe(a.body.secret);
  });

  it("lists and fetches with the secret; a list holds only the caller's subscriptions that are not deleted", async () => {
    const t = await tenant();
    const s1 = await createOk(t);
    const s2 = await createOk(t, valid({ eventTypes: ["sign.signer.opened"] }));
    const got = await t.api.get(s1.id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(s1);
    const list = await t.api.list();
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [s1, s2] });

    expect((await t.api.remove(s1.id)).status).toBe(204);
    expect((await t.api.list()).body.items.map((s) => s.id)).toEqual([s2.id]);
  });

  it("edits the endpoint and the event types; other fields in the body (a fetched object) are ignored", async () => {
    const t = await tenant();
    const s = await createOk(t);
    const a = await t.api.update(s.id, { endpoint: "https://127.0.0.1:8443/fixed", eventTypes: ["sign.signer.rejected", "sign.signer.rejected"] });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      id: s.id,
      endpoint: "https://127.0.0.1:8443/fixed",
      eventTypes: ["sign.signer.rejected"],
      isActive: true,
      secret: s.secret,
    });
    expect(Date.parse(a.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(s.updatedAt));

    const roundTrip = await t.api.update(s.id, { ...a.body, customerId: 999_999, id: randomUUID(), secret: "mine", eventTypes: ["sign.casefile.expired"] });
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body).toMatchObject({ id: s.id, customerId: t.customerId, secret: s.secret, eventTypes: ["sign.casefile.expired"] });
    expect((await t.api.get(s.id)).body.eventTypes).toEqual(["sign.casefile.expired"]);
  });

  it("refuses an edit with nothing to change, or with bad values, naming the fields (400)", async () => {
    const t = await tenant();
    const s = await createOk(t);
    const empty = await t.api.update(s.id, {});
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: "validation_failed", statusCode: 400 });
    expect(empty.body.errors?.length).toBeGreaterThan(0);

    const bad = await t.api.update(s.id, { eventTypes: [], endpoint: "nope", isActive: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.map((e) => e.path).sort()).toEqual(["endpoint", "eventTypes", "isActive"]);
    expect((await t.api.get(s.id)).body).toEqual(s);
  });

  it("disables (disabledAt set, no email owed) and re-enables (deliveries that were suspended resume)", async () => {
    const t = await tenant();
    const s = await createOk(t);
    const off = await t.api.update(s.id, { isActive: false });
    expect(off.status).toBe(200);
    expect(off.body.isActive).toBe(false);
    let row = await testDb().webhookSubscription.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.disabledAt).toBeInstanceOf(Date);
    expect(row.disabledNotifiedAt).toBeInstanceOf(Date);
    expect((await t.api.get(s.id)).body.isActive).toBe(false);
    expect((await t.api.list()).body.items.map((x) => x.id)).toEqual([s.id]);

    const suspended = await testDb().webhookDelivery.create({
      data: { id: randomUUID(), eventId: randomUUID(), subscriptionId: s.id, state: "suspended", attempts: 3, ladderStep: 3 },
    });
    const on = await t.api.update(s.id, { isActive: true });
    expect(on.status).toBe(200);
    expect(on.body.isActive).toBe(true);
    row = await testDb().webhookSubscription.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.disabledAt).toBeNull();
    expect(row.disabledNotifiedAt).toBeNull();
    const resumed = await testDb().webhookDelivery.findUniqueOrThrow({ where: { id: suspended.id } });
    expect(resumed.state).not.toBe("suspended");
  });

  it("deletes (204), after which the subscription is gone (404) and its open deliveries are cancelled", async () => {
    const t = await tenant();
    const s = await createOk(t);
    const pending = await testDb().webhookDelivery.create({
      data: { id: randomUUID(), eventId: randomUUID(), subscriptionId: s.id, state: "pending", nextAttemptAt: new Date(Date.now() + 60_000) },
    });
    const del = await t.api.remove(s.id);
    expect(del.status).toBe(204);
    expect(del.body).toBe("");
    for (const a of [await t.api.get(s.id), await t.api.update(s.id, { isActive: true }), await t.api.remove(s.id), await t.api.test(s.id)]) {
      expect(a.status).toBe(404);
      expect(a.body).toMatchObject({ error: "not_found", statusCode: 404 });
    }
    const row = await testDb().webhookSubscription.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(row.isActive).toBe(false);
    expect((await testDb().webhookDelivery.findUniqueOrThrow({ where: { id: pending.id } })).state).toBe("cancelled");
  });

  it("answers 404 for ids that are not UUIDs or that do not exist", async () => {
    const t = await tenant();
    for (const id of ["not-a-uuid", "1", randomUUID()]) {
      expect((await t.api.get(id)).status).toBe(404);
      expect((await t.api.update(id, { isActive: false })).status).toBe(404);
      expect((await t.api.remove(id)).status).toBe(404);
      expect((await t.api.deliveries(id)).status).toBe(404);
    }
  });
});

describe("authentication", () => {
  it("accepts `Authorization: JWT` + `X-Auth-Token`, and `Authorization: Bearer`", async () => {
    const t = await tenant();
    const jwt = subscriptionClient(gateway.url, t.token, "jwt");
    const bearer = subscriptionClient(gateway.url, t.token, "bearer");
    const a = await jwt.create(valid());
    expect(a.status).toBe(201);
    const b = await bearer.create(valid());
    expect(b.status).toBe(201);
    expect((await bearer.get(a.body.id)).status).toBe(200);
    expect((await jwt.list()).body.items.map((s) => s.id)).toEqual([a.body.id, b.body.id]);
  });

  it("answers 401 with the contract's body without a token, with a bad one, or with `Authorization: JWT` alone", async () => {
    const t = await tenant();
    const s = await createOk(t);
    const attempts: [string, string, Record<string, string>][] = [
      ["POST", "", {}],
      ["GET", "", {}],
      ["GET", `/${s.id}`, {}],
      ["DELETE", `/${s.id}`, { Authorization: "JWT", "X-Auth-Token": "not.a.jwt" }],
      ["GET", "", { Authorization: "Bearer not.a.jwt" }],
      ["GET", "", { Authorization: "JWT" }],
      ["GET", `/${s.id}/deliveries`, { Authorization: `Token ${t.token}` }],
    ];
    for (const [method, path, headers] of attempts) {
      const res = await fetch(`${gateway.url}${SUBSCRIPTIONS}${path}`, {
        method,
        headers: { "Content-Type": "application/json", ...headers },
        body: method === "POST" ? JSON.stringify(valid()) : undefined,
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "unauthorized", message: expect.any(String), statusCode: 401 });
    }
    expect(await activeCount(t.customerId)).toBe(1);
  });
});

describe("validation (400 naming every failing field)", () => {
  it("refuses an unknown event type, naming its index", async () => {
    const t = await tenant();
    const a = await t.api.create(valid({ eventTypes: ["sign.casefile.completed", "sign.casefile.exploded"] }));
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ error: "validation_failed", statusCode: 400, message: expect.any(String) });
    expect(a.body.errors).toEqual([{ path: "eventTypes[1]", code: expect.any(String), message: expect.any(String) }]);
  });

  it("refuses a bad URL in the endpoint field", async () => {
    const t = await tenant();
    for (const endpoint of ["not a url", "ftp://example.com/x", "//example.com/hook", "", 42, "https://user:pw@example.com/x"]) {
      const a = await t.api.create(valid({ endpoint }));
      expect(a.status).toBe(400);
      expect(a.body.errors?.map((e) => e.path)).toEqual(["endpoint"]);
    }
  });

  it("lists every failing field at once, and missing ones as required", async () => {
    const t = await tenant();
    const both = await t.api.create({ eventTypes: ["nope", 7], endpoint: "nope" });
    expect(both.status).toBe(400);
    expect(both.body.errors?.map((e) => e.path).sort()).toEqual(["endpoint", "eventTypes[0]", "eventTypes[1]"]);
    const missing = await t.api.create({});
    expect(missing.status).toBe(400);
    expect(missing.body.errors?.map((e) => [e.path, e.code]).sort()).toEqual([
      ["endpoint", "required"],
      ["eventTypes", "required"],
    ]);
    const empty = await t.api.create(valid({ eventTypes: [] }));
    expect(empty.body.errors?.map((e) => e.path)).toEqual(["eventTypes"]);
    expect(await activeCount(t.customerId)).toBe(0);
  });

  it("refuses a body that is not JSON", async () => {
    const t = await tenant();
    const res = await fetch(`${gateway.url}${SUBSCRIPTIONS}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${t.token}`, "Content-Type": "application/json" },
      body: "{ nope",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "bad_request", statusCode: 400 });
  });
});

describe("at most five active subscriptions per customer", () => {
  it("answers 409 for a sixth; deleting or disabling one frees a slot; re-enabling into a full set is 409", async () => {
    const t = await tenant();
    const subs = [];
    for (let i = 0; i < 5; i++) subs.push(await createOk(t));
    const sixth = await t.api.create(valid());
    expect(sixth.status).toBe(409);
    expect(sixth.body).toMatchObject({ error: "conflict", statusCode: 409, message: expect.stringContaining("5") });

    expect((await t.api.remove(subs[0]!.id)).status).toBe(204);
    const afterDelete = await createOk(t);
    expect((await t.api.create(valid())).status).toBe(409);

    expect((await t.api.update(subs[1]!.id, { isActive: false })).status).toBe(200);
    await createOk(t);
    expect(await activeCount(t.customerId)).toBe(5);

    // Re-enabling counts like creating: five are active, so the disabled one stays disabled.
    const before = (await t.api.get(subs[1]!.id)).body.endpoint;
    const reenable = await t.api.update(subs[1]!.id, { isActive: true, endpoint: "http://127.0.0.1:9/other" });
    expect(reenable.status).toBe(409);
    expect((await t.api.get(subs[1]!.id)).body).toMatchObject({ isActive: false, endpoint: before });
    // Editing a disabled one without enabling it is fine.
    expect((await t.api.update(subs[1]!.id, { endpoint: "http://127.0.0.1:9/other" })).status).toBe(200);

    expect((await t.api.update(afterDelete.id, { isActive: false })).status).toBe(200);
    expect((await t.api.update(subs[1]!.id, { isActive: true })).status).toBe(200);
    // Enabling an already active one is not a second slot.
    expect((await t.api.update(subs[1]!.id, { isActive: true })).status).toBe(200);
    expect(await activeCount(t.customerId)).toBe(5);
    expect((await t.api.list()).body.items).toHaveLength(6);
  });

  it("never ends with more than five active under ten parallel creates", async () => {
    const t = await tenant();
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.api.create(valid())));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 201, 201, 409, 409, 409, 409, 409]);
    expect(await activeCount(t.customerId)).toBe(5);
  });

  it("never ends with more than five active under parallel re-enables and creates", async () => {
    const t = await tenant();
    const subs = [];
    for (let i = 0; i < 5; i++) subs.push(await createOk(t));
    for (const s of subs.slice(0, 3)) expect((await t.api.update(s.id, { isActive: false })).status).toBe(200);
    // Two active, three disabled: six requests race for three slots.
    const answers = await Promise.all([
      ...subs.slice(0, 3).map((s) => t.api.update(s.id, { isActive: true })),
      t.api.create(valid()),
      t.api.create(valid()),
      t.api.create(valid()),
    ]);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 200 || a.status === 201)).toHaveLength(3);
    expect(await activeCount(t.customerId)).toBe(5);
  });
});

describe("tenancy", () => {
  it("hides A's subscription from B: get, edit, delete, test, deliveries and redeliver answer 404", async () => {
    const a = await tenant();
    const b = await tenant();
    const s = await createOk(a);
    await createOk(b);
    const answers = [
      await b.api.get(s.id),
      await b.api.update(s.id, { endpoint: "http://127.0.0.1:9/stolen", isActive: false }),
      await b.api.remove(s.id),
      await b.api.test(s.id),
      await b.api.deliveries(s.id),
      await b.api.redeliver(s.id, randomUUID()),
    ];
    for (const x of answers) expect(x.status).toBe(404);
    expect((await b.api.list()).body.items.map((x) => x.id)).not.toContain(s.id);
    expect((await a.api.get(s.id)).body).toEqual(s);
    expect(await testDb().event.count({ where: { targetSubscriptionId: s.id } })).toBe(0);
  });
});

describe("test event", () => {
  it("answers 202 with an eventId whose Event row targets the subscription", async () => {
    const t = await tenant();
    const s = await createOk(t);
    const a = await t.api.test(s.id);
    expect(a.status).toBe(202);
    expect(a.body).toEqual({ eventId: expect.stringMatching(UUID) });
    const event = await testDb().event.findUniqueOrThrow({ where: { id: a.body.eventId } });
    expect(event).toMatchObject({ customerId: t.customerId, targetSubscriptionId: s.id, eventType: "webhook.subscription.test", topic: "subscription" });
  });

  it("answers 409 for a disabled subscription", async () => {
    const t = await tenant();
    const s = await createOk(t);
    await t.api.update(s.id, { isActive: false });
    const a = await t.api.test(s.id);
    expect(a.status).toBe(409);
    expect(a.body).toMatchObject({ error: "conflict", message: expect.stringContaining("disabled") });
    expect(await testDb().event.count({ where: { targetSubscriptionId: s.id } })).toBe(0);
  });
});

describe("delivery log and redelivery", () => {
  /** Attempts with exact timestamps, including two 1 microsecond apart and two that tie. */
  async function seedAttempts(subscriptionId: string, eventId: string, times: string[]): Promise<string[]> {
    const db = testDb();
    const deliveryId = randomUUID();
    await db.webhookDelivery.create({ data: { id: deliveryId, eventId, subscriptionId, state: "exhausted", attempts: times.length } });
    const ids: string[] = [];
    for (const [i, at] of times.entries()) {
      const id = randomUUID();
      ids.push(id);
      const failed = i < times.length - 1;
      await db.$executeRaw`
        INSERT INTO "WebhookAttempt" (id, "deliveryId", "eventId", "subscriptionId", "attemptNumber", outcome, "httpStatus", cause,
                                      "durationMs", "nextAttemptAt", "createdAt")
        VALUES (${id}::uuid, ${deliveryId}::uuid, ${eventId}::uuid, ${subscriptionId}::uuid, ${i + 1},
                ${failed ? "failure" : "success"}, ${failed ? 503 : 200}, ${failed ? "non_2xx" : "ok"}, ${10 + i},
                ${failed ? new Date(Date.parse(at) + 5000) : null}, ${at}::timestamptz)`;
    }
    return ids;
  }

  async function allPages(api: SubscriptionClient, id: string, limit: number) {
    const pages: AttemptAnswer[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const a = await api.deliveries(id, query);
      expect(a.status).toBe(200);
      pages.push(a.body.data);
      cursor = a.body.nextCursor;
      if (pages.length > 20) throw new Error("paging does not end");
    } while (cursor !== null);
    return pages;
  }

  it("pages through the attempt log newest first with an opaque cursor", async () => {
    const t = await tenant();
    const s = await createOk(t);
    const other = await createOk(t);
    const eventId = randomUUID();
    const times = [
      "2026-01-01T00:00:01.000000Z",
      "2026-01-01T00:00:02.000000Z",
      "2026-01-01T00:00:03.000100Z",
      "2026-01-01T00:00:03.000101Z",
      "2026-01-01T00:00:04.000000Z",
      "2026-01-01T00:00:04.000000Z",
      "2026-01-01T00:00:05.000000Z",
    ];
    const [a1, a2, a3, a4, a5, a6, a7] = await seedAttempts(s.id, eventId, times);
    await seedAttempts(other.id, randomUUID(), ["2026-01-01T00:00:03.500000Z"]);
    const [tieFirst, tieSecond] = [a5!, a6!].sort();
    const expected = [a7, tieFirst, tieSecond, a4, a3, a2, a1];

    const pages = await allPages(t.api, s.id, 2);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
    expect(pages.flat().map((x) => x.id)).toEqual(expected);

    const first = pages[0]![0]!;
    expect(Object.keys(first).sort()).toEqual(
      ["attemptNumber", "cause", "createdAt", "durationMs", "eventId", "httpStatus", "id", "nextAttemptAt", "outcome"].sort(),
    );
    expect(first).toEqual({
      id: a7,
      eventId,
      attemptNumber: 7,
      outcome: "success",
      httpStatus: 200,
      cause: "ok",
      durationMs: 16,
      nextAttemptAt: null,
      createdAt: "2026-01-01T00:00:05.000Z",
    });
    expect(pages[3]![0]).toMatchObject({
      id: a1,
      attemptNumber: 1,
      outcome: "failure",
      httpStatus: 503,
      cause: "non_2xx",
      nextAttemptAt: "2026-01-01T00:00:06.000Z",
    });

    // The default page holds them all; a page size that divides the log exactly ends with null.
    const all = await t.api.deliveries(s.id);
    expect(all.body.data.map((x) => x.id)).toEqual(expected);
    expect(all.body.nextCursor).toBeNull();
    expect((await allPages(t.api, s.id, 7)).map((p) => p.length)).toEqual([7]);
    expect((await allPages(t.api, s.id, 1)).flat().map((x) => x.id)).toEqual(expected);

    expect((await t.api.deliveries(other.id, "?limit=5")).body.data).toHaveLength(1);
    const fresh = await createOk(t);
    expect((await t.api.deliveries(fresh.id)).body).toEqual({ data: [], nextCursor: null });
  });

  it("answers 400 for a bad limit or cursor", async () => {
    const t = await tenant();
    const s = await createOk(t);
    for (const q of ["?limit=0", "?limit=101", "?limit=abc", "?limit=2.5"]) {
      const a = await t.api.deliveries(s.id, q);
      expect(a.status).toBe(400);
      expect(a.body.errors?.map((e) => e.path)).toEqual(["limit"]);
    }
    const forged = Buffer.from(JSON.stringify(["yesterday", "x"])).toString("base64url");
    for (const cursor of ["garbage", forged, "W10"]) {
      const a = await t.api.deliveries(s.id, `?cursor=${cursor}`);
      expect(a.status).toBe(400);
      expect(a.body.errors?.map((e) => e.path)).toEqual(["cursor"]);
    }
  });

  it("redelivers an event the subscription had (202) and answers 404 for any other", async () => {
    const t = await tenant();
    const s = await createOk(t);
    const eventId = randomUUID();
    await seedAttempts(s.id, eventId, ["2026-01-01T00:00:01.000000Z"]);
    expect((await t.api.redeliver(s.id, randomUUID())).status).toBe(404);
    expect((await t.api.redeliver(s.id, "not-a-uuid")).status).toBe(404);

    const a = await t.api.redeliver(s.id, eventId);
    expect(a.status).toBe(202);
    expect(a.body).toEqual({ eventId });
    const delivery = await testDb().webhookDelivery.findUniqueOrThrow({ where: { eventId_subscriptionId: { eventId, subscriptionId: s.id } } });
    expect(delivery.state).toBe("pending");

    // An event of another subscription of the same customer is not this subscription's.
    const other = await createOk(t);
    expect((await t.api.redeliver(other.id, eventId)).status).toBe(404);
    // A disabled subscription cannot deliver: say so instead of accepting silently.
    await t.api.update(s.id, { isActive: false });
    expect((await t.api.redeliver(s.id, eventId)).status).toBe(409);
  });
});

describe("production endpoint policy", () => {
  let prod: ServiceProcess;

  beforeAll(async () => {
    prod = await startService("api-gateway", {
      NODE_ENV: "production",
      JWT_SECRET: "webhook-subscriptions-test-jwt-secret-0123456789",
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      WEBHOOK_ALLOW_PRIVATE: "false",
      METRICS_TOKEN: "webhook-subscriptions-metrics-token",
      LOG_LEVEL: "warn",
    });
  });

  afterAll(async () => {
    await prod?.stop();
  });

  it("refuses http, every non-public address and non-web ports with 400 on the endpoint field", async () => {
    const t = await tenant(prod.url);
    const refused = [
      "https://93.184.215.14:6379/hook",
      "https://93.184.215.14:5432/hook",
      "https://93.184.215.14:22/hook",
      "http://93.184.215.14/hook",
      "http://example.com/hook",
      "https://127.0.0.1/hook",
      "https://[::1]/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[::ffff:7f00:1]/hook",
      "https://2130706433/hook",
      "https://0x7f.1/hook",
      "https://localhost/hook",
      "https://10.0.0.8/hook",
      "https://192.168.1.1/hook",
      "https://[fd00::1]/hook",
      "https://0.0.0.0/hook",
    ];
    for (const endpoint of refused) {
      const a = await t.api.create(valid({ endpoint }));
      expect({ endpoint, status: a.status, paths: a.body.errors?.map((e) => e.path) }).toEqual({ endpoint, status: 400, paths: ["endpoint"] });
    }
    expect(await activeCount(t.customerId)).toBe(0);

    // A public address over https is fine (an IP literal: resolving it needs no network).
    const ok = await t.api.create(valid({ endpoint: "https://93.184.215.14/hook" }));
    expect(ok.status).toBe(201);
    // Edits are held to the same policy.
    const edit = await t.api.update(ok.body.id, { endpoint: "https://127.0.0.1/hook" });
    expect(edit.status).toBe(400);
    expect(edit.body.errors?.map((e) => e.path)).toEqual(["endpoint"]);
    expect((await t.api.get(ok.body.id)).body.endpoint).toBe("https://93.184.215.14/hook");
  });

  it("does not accept tokens of the development gateway (another JWT secret)", async () => {
    const t = await tenant(gateway.url);
    expect((await subscriptionClient(prod.url, t.token).list()).status).toBe(401);
  });
});

describe("as Penneo's published clients use it", () => {
  it("refuses a second subscription of the account to the same endpoint with 409 (Postman collection), on create and on edit", async () => {
    const t = await tenant();
    const endpoint = nextEndpoint();
    const first = await createOk(t, valid({ endpoint }));
    const again = await t.api.create(valid({ endpoint, eventTypes: ["sign.signer.signed"] }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "conflict", statusCode: 409, message: expect.stringContaining("endpoint") });
    const other = await createOk(t);
    const moved = await t.api.update(other.id, { endpoint });
    expect(moved.status).toBe(409);
    // Another customer may use the same endpoint; a deleted subscription frees it.
    const u = await tenant();
    expect((await u.api.create(valid({ endpoint }))).status).toBe(201);
    expect((await t.api.remove(first.id)).status).toBe(204);
    expect((await t.api.create(valid({ endpoint }))).status).toBe(201);
    expect((await t.api.update(other.id, { endpoint: other.endpoint })).status).toBe(200);
  });

  it("takes isActive on create (sdk-php, the collection): false makes a disabled subscription that takes no active slot", async () => {
    const t = await tenant();
    const off = await t.api.create(valid({ isActive: false }));
    expect(off.status).toBe(201);
    expect(off.body.isActive).toBe(false);
    const row = await testDb().webhookSubscription.findUniqueOrThrow({ where: { id: off.body.id } });
    expect(row.disabledAt).toBeInstanceOf(Date);
    expect(row.disabledNotifiedAt).toBeInstanceOf(Date);
    expect(await activeCount(t.customerId)).toBe(0);
    const on = await t.api.create(valid({ isActive: true }));
    expect(on.body.isActive).toBe(true);
    expect((await t.api.create(valid({ isActive: "yes" }))).status).toBe(400);
  });

  it("takes sdk-net's property names (Endpoint, EventTypes) as well", async () => {
    const t = await tenant();
    const endpoint = nextEndpoint();
    const a = await t.api.create({ Endpoint: endpoint, EventTypes: ["sign.casefile.completed", "sign.signer.signed"] });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ endpoint, eventTypes: ["sign.casefile.completed", "sign.signer.signed"], isActive: true });
    const edit = await t.api.update(a.body.id, { IsActive: false });
    expect(edit.status).toBe(200);
    expect(edit.body.isActive).toBe(false);
  });

  it("POST .../subscriptions/test answers 204 and writes one event for the account, aimed at no one subscription", async () => {
    const t = await tenant();
    await createOk(t, valid({ eventTypes: ["webhook.subscription.test"] }));
    const a = await t.api.testAll();
    expect(a.status).toBe(204);
    expect(a.body).toBe("");
    const events = await testDb().event.findMany({ where: { customerId: t.customerId } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      eventType: "webhook.subscription.test",
      topic: "subscription",
      targetSubscriptionId: null,
      payload: "This is a test event.",
    });
    // With no subscription at all, the call still answers 204 (nothing to deliver to).
    const lonely = await tenant();
    expect((await lonely.api.testAll()).status).toBe(204);
    expect((await lonely.api.testAll()).status).toBe(204);
  });
});

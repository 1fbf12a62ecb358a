import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { verifyWebhook } from "@esign/webhook-verify";
import { TEST_ENCRYPTION_KEY, testDb, closeTestDb } from "../support/api";
import { postmanApiKeysBody, sendRaw } from "../support/penneo-clients";
import { startReceiver, type Receiver } from "../support/receiver";
import { startSystem, type System } from "../support/system";

/*
 * Penneo's own Postman collection "Penneo Webhooks" (Penneo/Penneo-api-postman,
 * penneo-webhooks.postman_collection.json), replayed request by request: same method, path,
 * headers and body, and the checks of each request's test script. `webhookEndpoint` is a real
 * HTTP receiver on this machine (development mode allows loopback endpoints).
 */

let system: System;
let receiver: Receiver;
let creds: CustomerCredentials;
const vars: Record<string, string> = {};
const HOOK = "/penneo-webhooks-collection";

async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await sendRaw(system.gateway.url, method, path, headers, body);
  return { status: res.status, text: res.buf.toString("utf8"), json: (res.json ?? {}) as Record<string, unknown> };
}

const bearer = () => ({ Authorization: `Bearer ${vars.accessToken}` });
const jsonBearer = () => ({ ...bearer(), "Content-Type": "application/json" });

beforeAll(async () => {
  receiver = await startReceiver();
  system = await startSystem(["casefile-worker", "webhook-dispatcher"]);
  creds = await createCustomer(testDb(), { name: "Webhooks collection customer" }, TEST_ENCRYPTION_KEY);
  vars.webhookEndpoint = receiver.url(HOOK);
}, 60_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  await closeTestDb();
});

describe("Penneo Webhooks collection, requests 1-7 in order", () => {
  it("1. Get Access Token: 200 with access_token and a numeric expires_in", async () => {
    const res = await send("POST", "/oauth/token", { "Content-Type": "application/json" }, JSON.stringify(postmanApiKeysBody(creds), null, 2));
    expect(res.status).toBe(200);
    expect(typeof res.json.access_token).toBe("string");
    expect(typeof res.json.expires_in).toBe("number");
    vars.accessToken = String(res.json.access_token);
  });

  it("2. Create Subscription (Bearer, with isActive): 201, an id, a secret, active", async () => {
    const body = {
      endpoint: vars.webhookEndpoint,
      eventTypes: [
        "sign.casefile.completed",
        "sign.casefile.rejected",
        "sign.casefile.expired",
        "sign.signer.signed",
        "sign.signer.rejected",
        "webhook.subscription.test",
      ],
      isActive: true,
    };
    const res = await send("POST", "/webhook/api/v1/subscriptions", jsonBearer(), JSON.stringify(body, null, 2));
    expect(res.status).toBe(201);
    expect(typeof res.json.id).toBe("string");
    expect(res.json.id).not.toBe("");
    expect(typeof res.json.secret).toBe("string");
    expect(res.json.secret).not.toBe("");
    expect(res.json.isActive).toBe(true);
    vars.subscriptionId = String(res.json.id);
    vars.subscriptionSecret = String(res.json.secret);
    // "Creating a second subscription with the same endpoint URL on the same account returns 409 Conflict."
    expect((await send("POST", "/webhook/api/v1/subscriptions", jsonBearer(), JSON.stringify(body))).status).toBe(409);
  });

  it("3. Get Subscription: 200 with id, endpoint, an eventTypes array and isActive", async () => {
    const res = await send("GET", `/webhook/api/v1/subscriptions/${vars.subscriptionId}`, bearer());
    expect(res.status).toBe(200);
    expect(res.json).toHaveProperty("id");
    expect(res.json).toHaveProperty("endpoint");
    expect(Array.isArray(res.json.eventTypes)).toBe(true);
    expect(res.json).toHaveProperty("isActive");
  });

  it("4. List Subscriptions: 200 with an items array", async () => {
    const res = await send("GET", "/webhook/api/v1/subscriptions", bearer());
    expect(res.status).toBe(200);
    const items = res.json.items as { id: string; endpoint: string; isActive: boolean }[];
    expect(Array.isArray(items)).toBe(true);
    expect(items.map((s) => [s.id, s.endpoint, s.isActive])).toEqual([[vars.subscriptionId, vars.webhookEndpoint, true]]);
  });

  it("5. Test Subscription (POST .../subscriptions/test, body {}): 204, and the endpoint receives eventType test", async () => {
    const res = await send("POST", "/webhook/api/v1/subscriptions/test", jsonBearer(), "{}");
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const [delivery] = await receiver.waitFor(HOOK, 1, 10_000);
    // What the description tells the reader to look for, with the body as the SDKs' webhook docs show it.
    expect(delivery!.headers["x-event-type"]).toBe("webhook.subscription.test");
    const body = JSON.parse(delivery!.rawBody) as Record<string, unknown>;
    expect(body).toMatchObject({ topic: "subscription", eventType: "test", eventTime: { timezone_type: 3, timezone: "UTC" } });
    expect(typeof body.payload).toBe("string");
    // "Penneo signs outgoing payloads using this secret": it verifies with the saved subscriptionSecret.
    const check = await verifyWebhook({ secret: vars.subscriptionSecret!, rawBody: delivery!.rawBody, headers: delivery!.headers });
    expect(check).toMatchObject({ ok: true, eventType: "webhook.subscription.test" });
  });

  it("6. Update Subscription (PUT, the full body): 200 or 204; when 200, isActive and eventTypes", async () => {
    const body = {
      endpoint: vars.webhookEndpoint,
      eventTypes: [
        "sign.casefile.completed",
        "sign.casefile.rejected",
        "sign.casefile.expired",
        "sign.casefile.failed",
        "sign.signer.signed",
        "sign.signer.rejected",
        "sign.signer.reminderSent",
        "sign.signer.undeliverable",
        "webhook.subscription.test",
      ],
      isActive: true,
    };
    const res = await send("PUT", `/webhook/api/v1/subscriptions/${vars.subscriptionId}`, jsonBearer(), JSON.stringify(body, null, 2));
    expect([200, 204]).toContain(res.status);
    expect(res.status).toBe(200);
    expect(res.json.isActive).toBe(true);
    expect(res.json.eventTypes).toEqual(body.eventTypes);
    // "Temporarily pause delivery by setting isActive to false": the account-wide test then reaches no one.
    const paused = await send("PUT", `/webhook/api/v1/subscriptions/${vars.subscriptionId}`, jsonBearer(), JSON.stringify({ ...body, isActive: false }));
    expect(paused.json.isActive).toBe(false);
    expect((await send("POST", "/webhook/api/v1/subscriptions/test", jsonBearer(), "{}")).status).toBe(204);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.requests(HOOK)).toHaveLength(1);
    expect((await send("PUT", `/webhook/api/v1/subscriptions/${vars.subscriptionId}`, jsonBearer(), JSON.stringify(body))).json.isActive).toBe(true);
  });

  it("7. Delete Subscription: 204, no body; the subscription is gone", async () => {
    const res = await send("DELETE", `/webhook/api/v1/subscriptions/${vars.subscriptionId}`, bearer());
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await send("GET", `/webhook/api/v1/subscriptions/${vars.subscriptionId}`, bearer())).status).toBe(404);
    expect((await send("GET", "/webhook/api/v1/subscriptions", bearer())).json.items).toEqual([]);
  });
});

import type { CustomerCredentials } from "@esign/accounts";
import { EsignApiError, EsignClient, parseSignatureHeader, verifyWebhook } from "@esign/sdk";
import { startReceiver, type ReceivedRequest, type Receiver } from "../support/receiver";
import { startSystem, type System } from "../support/system";
import { createWorld, DEFAULT_EVENT_TYPE, type World } from "../support/webhook-world";

/*
 * Secret rotation with an overlap window (issue 29), through the API as an integrator calls it (the
 * SDK) and the real dispatcher: during the window every delivery, a redelivery too, carries two v1
 * entries (old secret's, then new one's) so a receiver holding either secret passes; after a revoke,
 * or once the window has passed, only the new one.
 */

let world: World;
let system: System;
let receiver: Receiver;
let owner: CustomerCredentials;
let sdk: EsignClient;

beforeAll(async () => {
  world = await createWorld("wh_rotation");
  receiver = await startReceiver();
  system = await startSystem(["webhook-dispatcher"], world.env({ WEBHOOK_LADDER_SCALE: "0.001" }));
  owner = await world.customer();
  sdk = new EsignClient({ baseUrl: system.gateway.url, credentials: { clientId: owner.clientId, clientSecret: owner.clientSecret } });
});

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  await world?.close();
});

const v1Count = (req: ReceivedRequest) => {
  const parsed = parseSignatureHeader(String(req.headers["x-event-signature"]));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.header.signatures.length;
};
const passesWith = async (req: ReceivedRequest, secret: string) => (await verifyWebhook({ secret, rawBody: req.rawBody, headers: req.headers })).ok;

/** Emits an event and returns its delivery (the next request to `path`). */
async function deliveryOf(path: string, emit: () => Promise<string>): Promise<{ eventId: string; req: ReceivedRequest }> {
  const before = receiver.requests(path).length;
  const eventId = await emit();
  const all = await receiver.waitFor(path, before + 1);
  const req = all.slice(before).find((r) => r.headers["x-event-id"] === eventId);
  if (!req) throw new Error(`no delivery of ${eventId}`);
  return { eventId, req };
}

describe("rotating a subscription's secret", () => {
  it("signs with old and new during the overlap (a redelivery too), with the new one only after a revoke", async () => {
    const sub = await sdk.subscriptions.create({ eventTypes: [DEFAULT_EVENT_TYPE], endpoint: receiver.url("/rotation") });
    expect(sub).toMatchObject({ maxPerSecond: null, ordered: false, previousSecretExpiresAt: null });
    const oldSecret = sub.secret;
    const emit = () => world.emit(owner.customerId);

    const before = await deliveryOf("/rotation", emit);
    expect(v1Count(before.req)).toBe(1);
    expect(await passesWith(before.req, oldSecret)).toBe(true);

    const rotated = await sdk.subscriptions.rotateSecret(sub.id, { overlapSeconds: 3600 });
    expect(rotated.secret).not.toBe(oldSecret);
    expect(rotated.secret).toMatch(/^whsec_/);
    const overlapEnds = Date.parse(rotated.previousSecretExpiresAt!);
    expect(overlapEnds).toBeGreaterThan(Date.now() + 3500_000);
    const read = await sdk.subscriptions.get(sub.id);
    expect(read).toMatchObject({ secret: rotated.secret, previousSecretExpiresAt: rotated.previousSecretExpiresAt });

    const during = await deliveryOf("/rotation", emit);
    expect(v1Count(during.req)).toBe(2);
    // A receiver that has only the old secret and one that has only the new one both pass.
    expect(await passesWith(during.req, oldSecret)).toBe(true);
    expect(await passesWith(during.req, rotated.secret)).toBe(true);
    expect(await passesWith(during.req, "whsec_someone_else")).toBe(false);

    // A redelivery of the event made before the rotation carries both as well, with its X-Event-Id.
    const redelivered = await deliveryOf("/rotation", async () => (await sdk.subscriptions.redeliver(sub.id, before.eventId)).eventId);
    expect(redelivered.eventId).toBe(before.eventId);
    expect(v1Count(redelivered.req)).toBe(2);
    expect(await passesWith(redelivered.req, oldSecret)).toBe(true);
    expect(await passesWith(redelivered.req, rotated.secret)).toBe(true);

    await sdk.subscriptions.revokePreviousSecret(sub.id);
    expect((await sdk.subscriptions.get(sub.id)).previousSecretExpiresAt).toBeNull();
    const revoked = await deliveryOf("/rotation", emit);
    expect(v1Count(revoked.req)).toBe(1);
    expect(await passesWith(revoked.req, oldSecret)).toBe(false);
    expect(await passesWith(revoked.req, rotated.secret)).toBe(true);
  });

  it("drops the old secret once the window has passed", async () => {
    const sub = await sdk.subscriptions.create({ eventTypes: [DEFAULT_EVENT_TYPE], endpoint: receiver.url("/window") });
    const rotated = await sdk.subscriptions.rotateSecret(sub.id, { overlapSeconds: 1 });
    // Wait out the window (no assertion on time: only what is signed after it is checked).
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(rotated.previousSecretExpiresAt!) - Date.now()) + 50));
    expect((await sdk.subscriptions.get(sub.id)).previousSecretExpiresAt).toBeNull();
    const after = await deliveryOf("/window", () => world.emit(owner.customerId));
    expect(v1Count(after.req)).toBe(1);
    expect(await passesWith(after.req, sub.secret)).toBe(false);
    expect(await passesWith(after.req, rotated.secret)).toBe(true);
  });

  it("rotates without an overlap when asked (overlapSeconds 0), and refuses a bad overlap or another customer's subscription", async () => {
    const sub = await sdk.subscriptions.create({ eventTypes: [DEFAULT_EVENT_TYPE], endpoint: receiver.url("/no-overlap") });
    const rotated = await sdk.subscriptions.rotateSecret(sub.id, { overlapSeconds: 0 });
    expect(rotated.previousSecretExpiresAt).toBeNull();
    const after = await deliveryOf("/no-overlap", () => world.emit(owner.customerId));
    expect(v1Count(after.req)).toBe(1);
    expect(await passesWith(after.req, rotated.secret)).toBe(true);

    const bad = await sdk.subscriptions.rotateSecret(sub.id, { overlapSeconds: -1 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(EsignApiError);
    expect((bad as EsignApiError).status).toBe(400);
    expect((bad as EsignApiError).errors?.map((f) => f.path)).toEqual(["overlapSeconds"]);

    const stranger = await world.customer();
    const other = new EsignClient({ baseUrl: system.gateway.url, credentials: { clientId: stranger.clientId, clientSecret: stranger.clientSecret } });
    for (const call of [() => other.subscriptions.rotateSecret(sub.id), () => other.subscriptions.revokePreviousSecret(sub.id)]) {
      const err = await call().catch((e: unknown) => e);
      expect((err as EsignApiError).status).toBe(404);
    }
    // The default overlap is the setting's: 24 hours.
    const byDefault = await sdk.subscriptions.rotateSecret(sub.id);
    expect(Date.parse(byDefault.previousSecretExpiresAt!) - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
  });
});

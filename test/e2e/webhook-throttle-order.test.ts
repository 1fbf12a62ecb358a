import type { CustomerCredentials } from "@esign/accounts";
import { EsignClient } from "@esign/sdk";
import { startReceiver, type ReceivedRequest, type Receiver } from "../support/receiver";
import { startSystem, type System } from "../support/system";
import { createWorld, DEFAULT_EVENT_TYPE, eventually, type World } from "../support/webhook-world";

/*
 * Throttling and ordering (issue 29), through the API and the real dispatcher.
 * Throttling: a burst beyond a subscription's maxPerSecond is spread out (a rate computed from the
 * receiver's own timestamps over the whole burst), every event arrives, and waiting is no failure.
 * The 5 per second over 1,000 events is measured in the bench (bench/scenarios/webhook-controls.ts);
 * here the same rule at 50 per second over 500 events keeps the file short.
 * Ordering: with the first event of a case file failing 3 times, that case file's events arrive in
 * order, and another case file's events go out while it waits. The ladder is scaled to 0.1 (retries
 * 0.5, 1, 1.5 s after each failure).
 */

const RATE = 50;
const BURST = 500;

let world: World;
let system: System;
let receiver: Receiver;
let owner: CustomerCredentials;
let sdk: EsignClient;

beforeAll(async () => {
  world = await createWorld("wh_throttle_order");
  receiver = await startReceiver();
  system = await startSystem(["webhook-dispatcher"], world.env({ WEBHOOK_LADDER_SCALE: "0.1" }));
  owner = await world.customer();
  sdk = new EsignClient({ baseUrl: system.gateway.url, credentials: { clientId: owner.clientId, clientSecret: owner.clientSecret } });
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  await world?.close();
});

const payloadOf = (req: ReceivedRequest) => (JSON.parse(req.rawBody) as { payload: { id: number; status: number } }).payload;

describe("a throttled subscription", () => {
  it(`spreads a burst of ${BURST} events to at most ${RATE} per second (+5 %), all delivered, none counted as failed`, async () => {
    const sub = await sdk.subscriptions.create({ eventTypes: [DEFAULT_EVENT_TYPE], endpoint: receiver.url("/throttled"), maxPerSecond: RATE });
    expect(sub.maxPerSecond).toBe(RATE);
    const ids = await world.emitMany(owner.customerId, BURST);
    // Every event, counted once: an answer later than the 1 s limit is retried, and its retry is a second
    // request of the same event (a clean-clone run on a starved machine: 500 requests, 499 events).
    const eventIds = () => new Set(receiver.requests("/throttled").map((r) => String(r.headers["x-event-id"])));
    await eventually(async () => eventIds().size >= BURST, 120_000, "every event received");
    const got = receiver.requests("/throttled");

    expect(new Set(got.map((r) => String(r.headers["x-event-id"])))).toEqual(new Set(ids));
    const spanSeconds = (got.at(-1)!.at - got[0]!.at) / 1000;
    const rate = (got.length - 1) / spanSeconds;
    process.stdout.write(`throttle ${RATE}/s: ${got.length} events over ${spanSeconds.toFixed(2)} s = ${rate.toFixed(2)}/s\n`);
    expect(rate).toBeLessThanOrEqual(RATE * 1.05);

    // Waiting is not failing: waiting for a turn makes no attempt and takes no ladder step, so each event
    // has one successful attempt and every delivery succeeded. A failed attempt is allowed only as the
    // receiver's or the machine's (an answer later than the 1 s limit: this receiver runs in the test's
    // own process, and a clean-clone CI run on 5 shards recorded 501 attempts for 500 events), and is
    // printed; anything else failing would be the throttle's doing.
    // The receiver has answered the last ones; their attempts are recorded just after (a CI run counted 494).
    await eventually(
      async () => (await world.db.webhookAttempt.count({ where: { subscriptionId: sub.id, outcome: "success" } })) >= BURST,
      10_000,
      "every success recorded",
    );
    const attempts = await world.db.webhookAttempt.findMany({ where: { subscriptionId: sub.id } });
    const successes = attempts.filter((a) => a.outcome === "success");
    const failed = attempts.filter((a) => a.outcome !== "success");
    if (failed.length > 0) process.stdout.write(`throttle: ${failed.length} attempt(s) failed on their own: ${JSON.stringify(failed.map((a) => a.cause))}\n`);
    expect(failed.filter((a) => a.cause !== "response_timeout" && a.cause !== "connect_timeout")).toEqual([]);
    expect(successes).toHaveLength(BURST);
    expect(new Set(successes.map((a) => a.eventId)).size).toBe(BURST);
    expect(attempts.filter((a) => a.attemptNumber === 1)).toHaveLength(BURST);
    await eventually(
      async () =>
        (await world.db.webhookDelivery.count({ where: { subscriptionId: sub.id, state: "succeeded", attempts: { lte: 1 + failed.length } } })) === BURST,
      10_000,
      "every delivery succeeded",
    );
    expect(await world.db.webhookDelivery.count({ where: { subscriptionId: sub.id, attempts: { gt: 1 } } })).toBe(failed.length);
  });

  it("can be changed and lifted through the API (null: no limit), refusing a rate out of bounds", async () => {
    const sub = await sdk.subscriptions.create({ eventTypes: [DEFAULT_EVENT_TYPE], endpoint: receiver.url("/limit-edit"), maxPerSecond: 5 });
    expect((await sdk.subscriptions.update(sub.id, { maxPerSecond: 10 })).maxPerSecond).toBe(10);
    expect((await sdk.subscriptions.update(sub.id, { maxPerSecond: null })).maxPerSecond).toBeNull();
    const bad = await sdk.subscriptions.update(sub.id, { maxPerSecond: 0 }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, errors: [expect.objectContaining({ path: "maxPerSecond" })] });
  });
});

describe("an ordered subscription", () => {
  it("delivers a case file's events in order behind its failing first event, while another case file's flow", async () => {
    const sub = await sdk.subscriptions.create({ eventTypes: [DEFAULT_EVENT_TYPE], endpoint: receiver.url("/ordered"), ordered: true });
    expect(sub.ordered).toBe(true);
    const A = 100;
    const B = 200;
    let failuresLeft = 3;
    const accepted: ReceivedRequest[] = [];
    receiver.on("/ordered", (req) => {
      const p = payloadOf(req);
      if (p.id === A && p.status === 1 && failuresLeft > 0) {
        failuresLeft -= 1;
        return { status: 500 };
      }
      accepted.push(req);
      return { status: 200 };
    });

    // Interleaved, each its own transaction: a1 b1 a2 b2 ... (status = position in its case file).
    for (let i = 1; i <= 5; i++) {
      await world.emit(owner.customerId, { payload: { id: A, status: i } });
      await world.emit(owner.customerId, { payload: { id: B, status: i } });
    }
    await eventually(async () => accepted.length === 10, 60_000, "all ten events accepted");

    const order = (caseFile: number) => accepted.filter((r) => payloadOf(r).id === caseFile).map((r) => payloadOf(r).status);
    expect(order(A)).toEqual([1, 2, 3, 4, 5]);
    expect(order(B)).toEqual([1, 2, 3, 4, 5]);
    // B was not held by A: all of B was accepted before A's first event finally got through.
    const firstA = accepted.findIndex((r) => payloadOf(r).id === A);
    expect(accepted.slice(0, firstA).map((r) => payloadOf(r).id)).toEqual([B, B, B, B, B]);
    // A's first event failed 3 times on its ladder; the others of A were held, never attempted early.
    const requests = receiver.requests("/ordered");
    expect(requests.filter((r) => payloadOf(r).id === A && payloadOf(r).status === 1)).toHaveLength(4);
    expect(requests).toHaveLength(13);
  });
});

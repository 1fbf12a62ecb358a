import { randomUUID } from "node:crypto";
import { createApiClient, createUser, type CustomerCredentials } from "@esign/accounts";
import { verifyWebhook } from "@esign/webhook-verify";
import { cancelSubscriptionDeliveries, createTestEvent, deliverJobId, dispatchJobId, testEventPayload } from "@esign/webhooks";
import { getToken, postCreate, TEST_ENCRYPTION_KEY, waitForJob } from "../support/api";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import {
  closedPort,
  garbageTlsServer,
  neverAcceptingListener,
  startReceiver,
  type ReceivedRequest,
  type Receiver,
  type TransportFault,
} from "../support/receiver";
import { startSystem, type System } from "../support/system";
import { createWorld, DEFAULT_EVENT_TYPE, eventually, type World } from "../support/webhook-world";

const EVENT_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
// 5 s -> 5 ms and 1 h -> 3.6 s: the fast retries are immediate, the slow ones out of this file's way.
const LADDER_SCALE = "0.001";

let world: World;
let system: System;
let receiver: Receiver;
const faults: TransportFault[] = [];

beforeAll(async () => {
  world = await createWorld("wh_delivery");
  receiver = await startReceiver();
  system = await startSystem(["casefile-worker", "webhook-dispatcher"], world.env({ WEBHOOK_LADDER_SCALE: LADDER_SCALE }), {
    JOB_POLL_LIMIT_PER_MINUTE: "0",
  });
});

afterAll(async () => {
  await system?.stop();
  await Promise.all(faults.map((f) => f.close()));
  await receiver?.close();
  await world?.close();
});

async function verified(req: ReceivedRequest, secret: string) {
  return verifyWebhook({ secret, rawBody: req.rawBody, headers: req.headers });
}

/**
 * A healthy receiver's delivery: succeeded, at its last attempt, with nothing before it but time-outs.
 * This file's receiver runs in the test's own process: on a starved CI machine it answered later than
 * the contract's limits (once a delivery succeeded at its third attempt), and the ladder retried as it
 * must. Anything else before the success (a refusal, a transport error) still fails the test.
 */
async function expectSucceededAfterTimeoutsOnly(subscriptionId: string, eventId: string) {
  const delivery = await eventually(
    () => world.db.webhookDelivery.findFirst({ where: { eventId, subscriptionId, state: "succeeded" } }),
    10_000,
    "delivery succeeded",
  );
  const attempts = await world.attempts({ eventId, subscriptionId });
  expect(delivery).toMatchObject({ attempts: attempts.length });
  expect(attempts.at(-1)).toMatchObject({ attemptNumber: attempts.length, outcome: "success", httpStatus: 200, cause: "ok", nextAttemptAt: null });
  for (const early of attempts.slice(0, -1)) expect(["connect_timeout", "response_timeout"]).toContain(early.cause);
}

describe("signed deliveries", () => {
  let owner: CustomerCredentials;
  let sub: { id: string; secret: string };

  beforeAll(async () => {
    owner = await world.customer();
    sub = await world.subscribe(owner, receiver.url("/signed"), ["sign.signer.requestActivated"]);
  });

  it("delivers a case-file-driven event of another user of the account, signed, in the contract's shape", async () => {
    // Created by a second, non-admin user of the same account: events cover every user's case files.
    const colleague = await createUser(world.db, owner.customerId, "colleague@example.com", "Colleague", false);
    const creds = await createApiClient(world.db, owner.customerId, colleague.id, TEST_ENCRYPTION_KEY);
    // Another subscription of the account without this type, and another account with it: neither gets it.
    await world.subscribe(owner, receiver.url("/other-type"), ["sign.casefile.completed"]);
    const stranger = await world.customer();
    await world.subscribe(stranger, receiver.url("/stranger"), ["sign.signer.requestActivated"]);

    const token = await getToken(system.gateway.url, creds);
    const files = [
      { name: "contract.pdf", content: await makePdf("Contract") },
      { name: "appendix.pdf", content: await makePdf("Appendix") },
    ];
    const created = await postCreate(system.gateway.url, token, validCaseFile(), files);
    expect(created.status).toBe(200);
    const job = await waitForJob(system.gateway.url, created.body.jobs[0]!.uuid, created.body.jobs[0]!.payloadHash);
    const caseFileId = job.result!.data.caseFile.id;
    const firstSigner = job.result!.data.signingLinks[0]!.signerId;

    const [req] = await receiver.waitFor("/signed", 1);
    const check = await verified(req!, sub.secret);
    expect(check).toMatchObject({ ok: true, eventType: "sign.signer.requestActivated" });
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(req!.headers["x-event-type"]).toBe("sign.signer.requestActivated");
    const event = await world.db.event.findFirstOrThrow({ where: { customerId: owner.customerId, eventType: "sign.signer.requestActivated" } });
    expect(req!.headers["x-event-id"]).toBe(event.id);

    const body = JSON.parse(req!.rawBody) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["topic", "eventType", "eventTime", "payload"]);
    // Penneo's SDKs' webhook docs: the body names the topic and the event within it; X-Event-Type the whole type.
    expect(body).toEqual({
      topic: "signer",
      eventType: "requestActivated",
      eventTime: { date: expect.stringMatching(EVENT_DATE), timezone_type: 3, timezone: "UTC" },
      // The spec's default signer payload: {id, caseFile: {id, status}}.
      payload: { id: firstSigner, caseFile: { id: caseFileId, status: 1 } },
    });
    const date = (body.eventTime as { date: string }).date;
    expect(new Date(`${date.replace(" ", "T").slice(0, 23)}Z`).getTime()).toBe(event.occurredAt.getTime());

    // The relay also published the event's internal reaction (the signer's signing request), naming
    // the event's customer for the mail throttle.
    const request = await world.producer().queue("notifications").getJob(`request-${event.id}`);
    expect(request?.data).toEqual({ signerId: firstSigner, eventId: event.id, customerId: owner.customerId });

    // A wrong secret does not verify: the signature really is keyed with this subscription's secret.
    expect(await verified(req!, "whsec_wrong")).toMatchObject({ ok: false, reason: "signature_mismatch" });
    await expectSucceededAfterTimeoutsOnly(sub.id, event.id);
    expect(await world.db.webhookDelivery.count({ where: { eventId: event.id } })).toBe(1);

    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests("/other-type")).toHaveLength(0);
    expect(receiver.requests("/stranger")).toHaveLength(0);
    expect(receiver.requests("/signed")).toHaveLength(1);
  });

  it("delivers a test event only to its subscription, whatever its event types, with a text payload", async () => {
    const eventId = await createTestEvent(world.db, owner.customerId, sub.id);
    const [, req] = await receiver.waitFor("/signed", 2);
    expect(req!.headers["x-event-id"]).toBe(eventId);
    expect(req!.headers["x-event-type"]).toBe("webhook.subscription.test");
    expect(await verified(req!, sub.secret)).toMatchObject({ ok: true, eventId, eventType: "webhook.subscription.test" });
    expect(JSON.parse(req!.rawBody)).toEqual({
      topic: "subscription",
      eventType: "test",
      eventTime: { date: expect.stringMatching(EVENT_DATE), timezone_type: 3, timezone: "UTC" },
      payload: testEventPayload(sub.id),
    });
    expect(await world.db.webhookDelivery.count({ where: { eventId } })).toBe(1);
  });
});

describe("failed attempts", () => {
  interface Case {
    path: string;
    cause: string;
    httpStatus: number | null;
    url?: () => Promise<string>;
  }
  const cases: Case[] = [
    { path: "/redirect", cause: "non_2xx", httpStatus: 302 },
    { path: "/not-found", cause: "non_2xx", httpStatus: 404 },
    { path: "/error", cause: "non_2xx", httpStatus: 503 },
    { path: "/slow", cause: "response_timeout", httpStatus: null },
    { path: "/never-accepted", cause: "connect_timeout", httpStatus: null, url: async () => track(await neverAcceptingListener()) },
    { path: "/refused", cause: "connection_refused", httpStatus: null, url: async () => track(await closedPort()) },
    { path: "/tls", cause: "tls_error", httpStatus: null, url: async () => track(await garbageTlsServer()) },
  ];
  const track = (f: TransportFault) => (faults.push(f), f.url);

  it("records each failure with its cause and status, and stops the ladder at the first 2xx", async () => {
    receiver.on("/redirect", () => ({ status: 302, headers: { location: receiver.url("/redirect-target") } }));
    receiver.on("/not-found", () => ({ status: 404 }));
    receiver.on("/error", () => ({ status: 503 }));
    receiver.on("/slow", () => ({ status: 200, delayMs: 1500 }));
    // Fails three times, then accepts.
    receiver.on("/flaky", (_req, i) => ({ status: i < 3 ? 500 : 200 }));

    // At most 5 subscriptions per account (the contract's limit), so two accounts.
    const a = await world.customer();
    const b = await world.customer();
    const subs = new Map<string, string>();
    for (const [i, c] of cases.entries()) {
      const endpoint = c.url ? await c.url() : receiver.url(c.path);
      subs.set(c.path, (await world.subscribe(i < 4 ? a : b, endpoint)).id);
    }
    const flaky = await world.subscribe(b, receiver.url("/flaky"));
    const events = [await world.emit(a.customerId), await world.emit(b.customerId)];

    for (const c of cases) {
      const subscriptionId = subs.get(c.path)!;
      const [first] = await eventually(
        async () => {
          const rows = await world.attempts({ subscriptionId });
          return rows.length > 0 ? rows : undefined;
        },
        10_000,
        `first attempt of ${c.path}`,
      );
      expect({ path: c.path, outcome: first!.outcome, cause: first!.cause, httpStatus: first!.httpStatus }).toEqual({
        path: c.path,
        outcome: "failure",
        cause: c.cause,
        httpStatus: c.httpStatus,
      });
      expect(first!.nextAttemptAt).not.toBeNull();
      if (c.cause === "connect_timeout") expect(first!.durationMs).toBeLessThan(400);
      if (c.cause === "response_timeout") expect(first!.durationMs).toBeGreaterThanOrEqual(1000);
    }
    expect(receiver.requests("/redirect-target")).toHaveLength(0);

    const delivered = await eventually(
      () => world.db.webhookDelivery.findFirst({ where: { subscriptionId: flaky.id, state: "succeeded" } }),
      10_000,
      "flaky delivery succeeded",
    );
    expect(delivered.attempts).toBe(4);
    const flakyAttempts = await world.attempts({ subscriptionId: flaky.id });
    expect(flakyAttempts.map((x) => [x.attemptNumber, x.outcome, x.httpStatus])).toEqual([
      [1, "failure", 500],
      [2, "failure", 500],
      [3, "failure", 500],
      [4, "success", 200],
    ]);
    // Every retry is the same event: same X-Event-Id, same bytes.
    const seen = receiver.requests("/flaky");
    expect(new Set(seen.map((r) => r.headers["x-event-id"]))).toEqual(new Set([events[1]]));
    expect(new Set(seen.map((r) => r.rawBody)).size).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests("/flaky")).toHaveLength(4);

    // Stop the failing ladders (as deleting the subscriptions would).
    for (const id of subs.values()) await cancelSubscriptionDeliveries(world.db, id);
  });
});

describe("an event's first attempts", () => {
  it("are made together in the event's dispatch job and recorded together; a failure continues on its own job", async () => {
    receiver.on("/batch-fail", () => ({ status: 500 }));
    const customer = await world.customer();
    const ok = [];
    for (let i = 0; i < 4; i++) ok.push(await world.subscribe(customer, receiver.url(`/batch-ok-${i}`)));
    const failing = await world.subscribe(customer, receiver.url("/batch-fail"));
    const eventId = await world.emit(customer.customerId);

    const deliveries = await eventually(
      async () => {
        const rows = await world.db.webhookDelivery.findMany({ where: { eventId } });
        return rows.length === 5 && rows.every((d) => d.attempts >= 1) ? rows : undefined;
      },
      10_000,
      "five first attempts recorded",
    );
    for (let i = 0; i < 4; i++) expect(new Set(receiver.requests(`/batch-ok-${i}`).map((r) => r.headers["x-event-id"]))).toEqual(new Set([eventId]));
    const firsts = await world.attempts({ eventId });
    const first = firsts.filter((a) => a.attemptNumber === 1);
    expect(first).toHaveLength(5);
    // Recorded by one statement after the last answer: one commit time for the five.
    expect(new Set(first.map((a) => a.createdAt.getTime())).size).toBe(1);
    const queue = world.producer().queue("webhooks");
    for (const d of deliveries) expect(await queue.getJob(deliverJobId(d.id, 1))).toBeUndefined();
    for (const sub of ok) await expectSucceededAfterTimeoutsOnly(sub.id, eventId);

    // The failure's ladder runs on webhooks/deliver jobs, one attempt each.
    const failed = deliveries.find((d) => d.subscriptionId === failing.id)!;
    await eventually(async () => (await queue.getJob(deliverJobId(failed.id, 2)))?.isCompleted(), 10_000, "attempt 2 ran as its own job");
    expect(receiver.requests("/batch-fail").length).toBeGreaterThanOrEqual(2);
    await cancelSubscriptionDeliveries(world.db, failing.id);
  });
});

describe("events committed together", () => {
  it("are dispatched by one job, in outbox order, each event's first attempts recorded together", async () => {
    const customer = await world.customer();
    const subs = [await world.subscribe(customer, receiver.url("/together-0")), await world.subscribe(customer, receiver.url("/together-1"))];
    const eventIds = await world.emitMany(customer.customerId, 6);

    for (const i of [0, 1]) await receiver.waitFor(`/together-${i}`, 6);
    for (const [i, sub] of subs.entries()) {
      const got = receiver.requests(`/together-${i}`);
      expect(new Set(got.map((r) => r.headers["x-event-id"]))).toEqual(new Set(eventIds));
      for (const req of got) await expect(verified(req, sub.secret)).resolves.toMatchObject({ ok: true });
    }
    // One drain claimed the six (one commit), so one job carries them all, in their outbox order.
    const job = await world.dispatchJobOf(eventIds[0]!);
    expect(job?.data).toEqual({ eventIds });
    expect(job?.id).toBe(dispatchJobId(eventIds));
    for (const id of eventIds.slice(1)) expect((await world.dispatchJobOf(id))?.id).toBe(job?.id);

    const deliveries = await eventually(
      async () => {
        const rows = await world.db.webhookDelivery.findMany({ where: { eventId: { in: eventIds } } });
        return rows.length === 12 && rows.every((d) => d.state === "succeeded") ? rows : undefined;
      },
      10_000,
      "twelve deliveries succeeded",
    );
    for (const eventId of eventIds) for (const sub of subs) await expectSucceededAfterTimeoutsOnly(sub.id, eventId);
    for (const eventId of eventIds) {
      const firsts = (await world.attempts({ eventId })).filter((a) => a.attemptNumber === 1);
      expect(firsts).toHaveLength(2);
      expect(new Set(firsts.map((a) => a.createdAt.getTime())).size).toBe(1);
    }
    const queue = world.producer().queue("webhooks");
    for (const d of deliveries) expect(await queue.getJob(deliverJobId(d.id, 1))).toBeUndefined();
  });

  it("still run when queued in the one-event shape of earlier releases", async () => {
    const customer = await world.customer();
    await world.subscribe(customer, receiver.url("/legacy-shape"));
    // Relayed already, as before an upgrade: only the waiting job can make it go.
    const eventId = randomUUID();
    await world.db.event.create({
      data: {
        id: eventId,
        customerId: customer.customerId,
        topic: "casefile",
        eventType: DEFAULT_EVENT_TYPE,
        payload: { id: 9, status: 7 },
        relayedAt: new Date(),
      },
    });
    await world.producer().enqueue("events", "dispatch", { eventId }, { jobId: eventId });
    const [req] = await receiver.waitFor("/legacy-shape", 1);
    expect(req!.headers["x-event-id"]).toBe(eventId);
    await eventually(() => world.db.webhookDelivery.findFirst({ where: { eventId, state: "succeeded" } }), 10_000, "the delivery recorded");
  });
});

describe("an event's first attempts, one of them unpreparable", () => {
  it("delivers the others and leaves only the broken one pending", async () => {
    const customer = await world.customer();
    const good = await world.subscribe(customer, receiver.url("/batch-good"));
    const broken = await world.subscribe(customer, receiver.url("/batch-broken"));
    // A secret that no longer decrypts (e.g. encrypted under a rotated-away key).
    await world.db.webhookSubscription.update({ where: { id: broken.id }, data: { secretEnc: "not-an-encrypted-secret" } });
    const eventId = await world.emit(customer.customerId);

    await receiver.waitFor("/batch-good", 1);
    const goodDelivery = await eventually(
      () => world.db.webhookDelivery.findFirst({ where: { eventId, subscriptionId: good.id, state: "succeeded" } }),
      10_000,
      "the good delivery recorded",
    );
    expect(goodDelivery.attempts).toBe(1);
    const brokenDelivery = await world.db.webhookDelivery.findFirstOrThrow({ where: { eventId, subscriptionId: broken.id } });
    expect(brokenDelivery).toMatchObject({ state: "pending", attempts: 0 });
    expect(receiver.requests("/batch-broken")).toHaveLength(0);
    // The dispatch job failed for the broken one and is being retried by BullMQ.
    const job = await eventually(
      async () => {
        const j = await world.dispatchJobOf(eventId);
        return j && j.attemptsMade > 0 && j;
      },
      10_000,
      "the dispatch job retried",
    );
    expect(job.failedReason).toContain("could not be prepared");
    await cancelSubscriptionDeliveries(world.db, broken.id);
  });
});

describe("the outbox relay", () => {
  it("dispatches only events some subscription wants, and relays the others all the same", async () => {
    const customer = await world.customer();
    await world.subscribe(customer, receiver.url("/relay-wanted"), ["sign.casefile.completed"]);
    const unwanted = await world.emit(customer.customerId, { eventType: "sign.casefile.failed", payload: { id: 1, status: 6 } });
    const wanted = await world.emit(customer.customerId, { eventType: "sign.casefile.completed", payload: { id: 1, status: 5 } });
    await receiver.waitFor("/relay-wanted", 1);
    const relayed = await eventually(
      async () => {
        const rows = await world.db.event.findMany({ where: { id: { in: [unwanted, wanted] } } });
        return rows.every((r) => r.relayedAt !== null) && rows;
      },
      10_000,
      "both events relayed",
    );
    expect(relayed).toHaveLength(2);
    expect(await world.dispatchJobOf(unwanted)).toBeUndefined();
    expect(await world.dispatchJobOf(wanted)).toBeDefined();
    expect(await world.db.webhookDelivery.count({ where: { eventId: unwanted } })).toBe(0);
  });
});

describe("in production", () => {
  let prod: World;

  afterAll(async () => {
    await prod?.close();
  });

  it("refuses a loopback endpoint without connecting (cause blocked_address)", async () => {
    prod = await createWorld("wh_prod");
    await prod.startDispatcher({
      NODE_ENV: "production",
      JWT_SECRET: "production-like-jwt-secret-for-the-ssrf-test-0123456789",
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      METRICS_TOKEN: "webhook-delivery-metrics-token",
      WEBHOOK_LADDER_SCALE: LADDER_SCALE,
    });
    const customer = await prod.customer();
    const sub = await prod.subscribe(customer, receiver.url("/internal"));
    const eventId = await prod.emit(customer.customerId);
    const [attempt] = await eventually(
      async () => {
        const rows = await prod.attempts({ eventId });
        return rows.length > 0 ? rows : undefined;
      },
      10_000,
      "blocked attempt",
    );
    expect(attempt).toMatchObject({ subscriptionId: sub.id, outcome: "failure", cause: "blocked_address", httpStatus: null });
    expect(receiver.requests("/internal")).toHaveLength(0);
  });
});

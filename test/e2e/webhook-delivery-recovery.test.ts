import { randomUUID } from "node:crypto";
import { createLogger } from "@esign/logger";
import { deliverJobId, requestRedelivery, scheduleAttempt, subscriptionDisabledJobId } from "@esign/webhooks";
import { sweepWebhooks } from "../../services/webhook-dispatcher/src/sweep/sweep-webhooks";
import { startReceiver, type Receiver } from "../support/receiver";
import { startRedisServer, type RedisServer } from "../support/redis-server";
import type { ServiceProcess } from "../support/services";
import { createWorld, eventually, type World } from "../support/webhook-world";

/*
 * "Never lost": a dispatcher killed mid-delivery, a Redis restart with work queued in it and an
 * event written while it is down, and the sweeper that re-enqueues what PostgreSQL says is owed.
 * Everything runs on a redis-server of this file's own, with persistence, so it can be restarted.
 */

const DISPATCHER_ENV = {
  // 5 s -> 1.5 s: retries are still queued in Redis when it goes down.
  WEBHOOK_LADDER_SCALE: "0.3",
  // A killed worker's job is taken over after ~2 s instead of the production 30 s.
  QUEUE_LOCK_DURATION_MS: "2000",
  QUEUE_STALLED_INTERVAL_MS: "1000",
  OUTBOX_POLL_INTERVAL_MS: "200",
  // The sweeper test calls the sweeper itself: the dispatcher's own periodic sweep (a third of this
  // after its start, then this often) must not run between that test's setup and its sweep.
  SWEEP_INTERVAL_MS: "600000",
};

let redis: RedisServer;
let world: World;
let receiver: Receiver;
let dispatcher: ServiceProcess;
let releaseHeld: () => void = () => {};

beforeAll(async () => {
  redis = await startRedisServer();
  world = await createWorld("wh_recovery", { redisUrl: redis.url });
  receiver = await startReceiver();
  dispatcher = await world.startDispatcher(DISPATCHER_ENV);
});

afterAll(async () => {
  releaseHeld();
  await world?.close();
  await receiver?.close();
  await redis?.stop();
});

const succeeded = (eventIds: string[]) =>
  eventually(
    async () => (await world.db.webhookDelivery.count({ where: { eventId: { in: eventIds }, state: "succeeded" } })) === eventIds.length,
    25_000,
    `${eventIds.length} deliveries succeeded`,
  );

describe("never lost", () => {
  it("delivers an event whose dispatcher was killed mid-request, with the same X-Event-Id", async () => {
    const customer = await world.customer();
    const sub = await world.subscribe(customer, receiver.url("/held"));
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    // The first request is held open until the dispatcher sending it is dead; later ones succeed.
    receiver.on("/held", (_req, i) => (i === 0 ? { status: 200, hold: held } : { status: 200 }));
    const eventId = await world.emit(customer.customerId);

    await receiver.waitFor("/held", 1);
    await dispatcher.kill();
    releaseHeld();
    dispatcher = await world.startDispatcher(DISPATCHER_ENV);

    const [first, second] = await receiver.waitFor("/held", 2, 20_000);
    expect(first!.headers["x-event-id"]).toBe(eventId);
    expect(second!.headers["x-event-id"]).toBe(eventId);
    expect(second!.rawBody).toBe(first!.rawBody);
    await succeeded([eventId]);
    // The killed attempt never committed, so the log holds one attempt: the one that succeeded.
    const attempts = await world.attempts({ subscriptionId: sub.id });
    expect(attempts.map((a) => [a.attemptNumber, a.outcome])).toEqual([[1, "success"]]);
  });

  it("delivers everything across a Redis restart, including an event written while Redis was down", async () => {
    const customer = await world.customer();
    await world.subscribe(customer, receiver.url("/flap"));
    // Each event fails once, so its retry sits in Redis as a delayed job when Redis goes down.
    const seen = new Map<string, number>();
    receiver.on("/flap", (req) => {
      const id = String(req.headers["x-event-id"]);
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      return { status: n === 0 ? 500 : 200 };
    });
    const before: string[] = [];
    for (let i = 0; i < 5; i++) before.push(await world.emit(customer.customerId, { payload: { id: i, status: 7 } }));
    await eventually(
      async () => (await world.db.webhookAttempt.count({ where: { eventId: { in: before }, outcome: "failure" } })) === 5,
      10_000,
      "first attempts failed",
    );

    await redis.shutdown();
    const whileDown = await world.emit(customer.customerId, { payload: { id: 99, status: 7 } });
    // Past the retries' due time (1.5 s) with Redis away, and long enough for the relay to fail.
    await new Promise((r) => setTimeout(r, 2000));
    expect(await world.db.event.findUniqueOrThrow({ where: { id: whileDown } })).toMatchObject({ relayedAt: null });
    await redis.restart();

    await succeeded([...before, whileDown]);
    const delivered = receiver
      .requests("/flap")
      .filter((r) => seen.get(String(r.headers["x-event-id"])) !== undefined)
      .map((r) => String(r.headers["x-event-id"]));
    for (const id of [...before, whileDown]) expect(delivered).toContain(id);
    expect(dispatcher.isRunning()).toBe(true);
  });

  it("redelivers an event asked for while its first attempt is still in flight (answered, not yet recorded)", async () => {
    const customer = await world.customer();
    const sub = await world.subscribe(customer, receiver.url("/in-flight"));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    receiver.on("/in-flight", (_req, i) => (i === 0 ? { status: 204, hold: held } : { status: 204 }));
    const eventId = await world.emit(customer.customerId);
    await receiver.waitFor("/in-flight", 1);

    // Asked for while the first attempt runs: both attempts are made and both are in the log.
    const redelivery = requestRedelivery(world.db, world.producer(), sub.id, eventId);
    await new Promise((r) => setTimeout(r, 300));
    release();
    expect(await redelivery).toBe(true);

    const [first, second] = await receiver.waitFor("/in-flight", 2, 20_000);
    expect(second!.headers["x-event-id"]).toBe(first!.headers["x-event-id"]);
    await eventually(async () => (await world.attempts({ subscriptionId: sub.id })).length === 2, 10_000, "two attempts recorded");
    const attempts = await world.attempts({ subscriptionId: sub.id });
    expect(attempts.map((a) => [a.attemptNumber, a.outcome])).toEqual([
      [1, "success"],
      [2, "success"],
    ]);
  });

  it("has a sweeper that re-enqueues overdue deliveries and owed notifications found in PostgreSQL", async () => {
    const logger = createLogger({ service: "sweep-test", level: "error" });
    const producer = world.producer();
    const customer = await world.customer();
    const sub = await world.subscribe(customer, receiver.url("/swept"));
    const longAgo = new Date(Date.now() - 120_000);
    // Two deliveries PostgreSQL says are overdue: one with no job at all (lost with Redis), one whose
    // job already ran and finished without sending (the resume that set it pending never enqueued).
    // (An event type the subscription does not hold, so the relay's own fan-out leaves it alone.)
    const newDelivery = async () => {
      const eventId = await world.emit(customer.customerId, { eventType: "sign.casefile.failed", payload: { id: 5, status: 6 } });
      return world.db.webhookDelivery.create({
        data: { id: randomUUID(), eventId, subscriptionId: sub.id, state: "suspended", nextAttemptAt: longAgo },
      });
    };
    const lost = await newDelivery();
    const finished = await newDelivery();
    await scheduleAttempt(producer, finished.id, 1);
    await eventually(async () => (await producer.queue("webhooks").getJob(deliverJobId(finished.id, 1)))?.isCompleted(), 10_000, "job finished");
    await world.db.webhookDelivery.updateMany({ where: { id: { in: [lost.id, finished.id] } }, data: { state: "pending" } });
    // A subscription the ladder disabled a while ago whose notification job is gone.
    const disabled = await world.subscribe(customer, receiver.url("/disabled"));
    await world.db.webhookSubscription.update({ where: { id: disabled.id }, data: { isActive: false, disabledAt: longAgo } });

    const first = await sweepWebhooks(world.db, producer, logger, { graceMs: 30_000, limit: 100 });
    expect(first).toEqual({ deliveriesRequeued: 2, notificationsRequeued: 1, recoverTasksRequeued: 0, heldReleased: 0, failingWarned: 0 });
    const job = await producer.queue("notifications").getJob(subscriptionDisabledJobId(disabled.id, longAgo));
    expect(job?.data).toEqual({ subscriptionId: disabled.id });
    await succeeded([lost.eventId, finished.eventId]);
    expect(new Set(receiver.requests("/swept").map((r) => r.headers["x-event-id"]))).toEqual(new Set([lost.eventId, finished.eventId]));

    // Nothing owed any more (the notification job exists): a second sweep changes nothing.
    expect(await sweepWebhooks(world.db, producer, logger, { graceMs: 30_000, limit: 100 })).toEqual({
      deliveriesRequeued: 0,
      notificationsRequeued: 0,
      recoverTasksRequeued: 0,
      heldReleased: 0,
      failingWarned: 0,
    });
  });
});

describe("the outbox relay's LISTEN connection", () => {
  let listenWorld: World;

  beforeAll(async () => {
    listenWorld = await createWorld("wh_listen");
    // Polling practically off: only a NOTIFY (or a reconnect) can make the relay drain.
    await listenWorld.startDispatcher({ OUTBOX_POLL_INTERVAL_MS: "600000" });
  });

  afterAll(async () => {
    await listenWorld?.close();
  });

  const listeners = () =>
    listenWorld.db.$queryRaw<{ pid: number }[]>`
      SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`;

  it("is woken by NOTIFY at commit, and reconnects after losing its connection", async () => {
    const customer = await listenWorld.customer();
    await listenWorld.subscribe(customer, receiver.url("/listen"));
    const first = await listenWorld.emit(customer.customerId);
    const [hit] = await receiver.waitFor("/listen", 1, 5000);
    expect(hit!.headers["x-event-id"]).toBe(first);

    const [before] = await eventually(
      async () => {
        const rows = await listeners();
        return rows.length === 1 ? rows : undefined;
      },
      5000,
      "one LISTEN connection",
    );
    await listenWorld.db.$queryRaw`SELECT pg_terminate_backend(${before!.pid}::int)`;
    await eventually(
      async () => {
        const rows = await listeners();
        return rows.length === 1 && rows[0]!.pid !== before!.pid;
      },
      10_000,
      "a new LISTEN connection",
    );

    const second = await listenWorld.emit(customer.customerId);
    const [, again] = await receiver.waitFor("/listen", 2, 5000);
    expect(again!.headers["x-event-id"]).toBe(second);
  });
});

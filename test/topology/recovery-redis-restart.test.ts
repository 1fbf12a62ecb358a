import { startReceiver, type Receiver } from "../support/receiver";
import { startRedisServer, type RedisServer } from "../support/redis-server";
import { lastRecoveries, recoveryRun, settle, spread, sleep, startRecoverySystem, TIMING, type RecoverySystem } from "../support/recovery-system";
import { createWorld, type World } from "../support/webhook-world";

/*
 * Issue 18: back to normal within seconds after Redis returns. A redis-server of this file's own
 * (AOF, fsync always) is shut down for TIMING.outageMs and started again under a steady trickle of
 * creates (3/s), signings (2/s) and webhook deliveries to two subscriptions (one healthy, one that fails
 * each event's first attempt, so retries of the ladder are queued across the restart). The bound is
 * the requirement itself: every create accepted while Redis was away has its case file, and every
 * event written meanwhile reaches its subscriptions, within 5 s of Redis answering; nothing doubled.
 */

let redis: RedisServer;
let world: World;
let receiver: Receiver;
let system: RecoverySystem;

beforeAll(async () => {
  redis = await startRedisServer();
  world = await createWorld("recovery_redis", { redisUrl: redis.url });
  receiver = await startReceiver();
  system = await startRecoverySystem(world);
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  await world?.close();
  await redis?.stop();
});

it("enqueues what PostgreSQL holds within seconds of Redis answering, and doubles nothing", async () => {
  const { customerId, trickle, subscriptions } = await recoveryRun(world, system, receiver, "redis");
  trickle.start();
  await sleep(TIMING.warmupMs);
  const downAt = Date.now();
  await redis.shutdown();
  await sleep(TIMING.outageMs);
  await redis.restart();
  // restart() resolves once the new server answered a PING (polled every 50 ms).
  const upAt = Date.now();
  await sleep(TIMING.afterMs);
  await trickle.stop();

  const done = await settle(world, customerId, trickle, subscriptions);

  // Redis is not on the path of an accepted create or a signature: nothing was refused meanwhile.
  expect(trickle.creates.filter((c) => c.status !== 200)).toEqual([]);
  expect(trickle.signings.filter((s) => s.status !== 200)).toEqual([]);

  const duringCreates = done.creates.filter((c) => c.acceptedAt >= downAt && c.acceptedAt <= upAt);
  const duringEvents = done.events.filter((e) => e.occurredAt >= downAt && e.occurredAt <= upAt);
  const createLag = duringCreates.map((c) => c.caseFileAt - upAt);
  const healthyLag = duringEvents.map((e) => e.healthyAt - upAt);
  const flakyLag = duringEvents.flatMap((e) => (e.flakyAt === undefined ? [] : [e.flakyAt - upAt]));
  const metrics = await lastRecoveries(system);
  process.stdout.write(
    `Redis restart (${TIMING.outageMs} ms away): ${trickle.creates.length} creates, ${trickle.signed.size} signatures, ${done.events.length} events\n` +
      `  creates accepted while away: ${JSON.stringify(spread(createLag))} ms from Redis answering to the case file\n` +
      `  events written while away: ${JSON.stringify(spread(healthyLag))} ms to the healthy subscription, ` +
      `${JSON.stringify(spread(flakyLag))} ms to the failing-first one (after its retry)\n` +
      `  other creates: ${JSON.stringify(spread(done.creates.filter((c) => c.acceptedAt > upAt).map((c) => c.caseFileAt - c.acceptedAt)))} ms accepted -> case file\n` +
      `  esign_recovery_last_seconds: ${JSON.stringify(metrics)}\n`,
  );

  expect(duringCreates.length).toBeGreaterThanOrEqual(10);
  expect(duringEvents.length).toBeGreaterThanOrEqual(3);
  expect(Math.max(...createLag)).toBeLessThanOrEqual(TIMING.boundMs);
  expect(Math.max(...healthyLag)).toBeLessThanOrEqual(TIMING.boundMs);
  expect(Math.max(...flakyLag)).toBeLessThanOrEqual(TIMING.boundMs);
  // Nothing doubled: one case file per creation job, each lifecycle event once, each event POSTed
  // to the healthy subscription once, and answered 2xx once by the failing-first one.
  expect(done.doubled).toEqual([]);

  // The services timed their own recovery (reconnect -> empty backlog) and export it.
  const recoveries = [
    metrics["api-gateway"]?.["redis/create_enqueues"],
    metrics["casefile-worker"]?.["redis/casefile_sweep"],
    metrics["casefile-worker"]?.["redis/outbox"],
    metrics["webhook-dispatcher"]?.["redis/webhook_sweep"],
  ];
  for (const seconds of recoveries) {
    expect(seconds).toBeDefined();
    expect(seconds!).toBeLessThan(TIMING.boundMs / 1000);
  }
}, 180_000);

import { startPostgresServer, type PostgresServer } from "../support/postgres-server";
import { startReceiver, type Receiver } from "../support/receiver";
import {
  errorLines,
  lastRecoveries,
  recoveryRun,
  settle,
  spread,
  sleep,
  startRecoverySystem,
  TIMING,
  type Answer,
  type RecoverySystem,
} from "../support/recovery-system";
import { createWorld, type World } from "../support/webhook-world";

/*
 * Issue 18: back to normal within seconds after PostgreSQL returns. A PostgreSQL cluster of this
 * file's own (made as `pnpm start` makes one) is stopped (`-m fast`: sessions ended at once) for
 * TIMING.outageMs and started again under the same trickle as the Redis test. While it is away every
 * create and signing is answered 503 with Retry-After, never 500; once it answers, every accepted
 * create has its case file and every event reaches its subscriptions within 5 s; nothing doubled.
 * So that work is certainly in flight when it goes, the casefile and events queues are paused for
 * HELD_MS before the stop and resumed right after it: the creates accepted and the events relayed
 * meanwhile run while PostgreSQL is away (and must neither fail nor wait out a long backoff).
 */
const HELD_MS = 1500;

let postgres: PostgresServer;
let world: World;
let receiver: Receiver;
let system: RecoverySystem;

beforeAll(async () => {
  postgres = await startPostgresServer();
  world = await createWorld("recovery_pg", { postgresUrl: postgres.url("postgres") });
  receiver = await startReceiver();
  system = await startRecoverySystem(world);
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  await world?.close();
  await postgres?.stop();
});

/** Answers that are neither a success nor the 503 with Retry-After an outage should get. */
const unexpected = (answers: Answer[], ok: number) =>
  answers.filter((a) => a.status !== ok && !(a.status === 503 && a.retryAfter !== null && a.errorCode === "service_unavailable"));

it("answers 503 with Retry-After while PostgreSQL is away, and is back to normal within seconds", async () => {
  const { customerId, trickle, subscriptions } = await recoveryRun(world, system, receiver, "pg");
  trickle.start();
  await sleep(TIMING.warmupMs);
  const held = ["casefile", "events"] as const;
  await Promise.all(held.map((q) => world.producer().queue(q).pause()));
  await sleep(HELD_MS);
  const downAt = Date.now();
  await postgres.shutdown();
  await Promise.all(held.map((q) => world.producer().queue(q).resume()));
  await sleep(TIMING.outageMs);
  await postgres.restart();
  // restart() resolves once pg_ctl saw the server accept connections.
  const upAt = Date.now();
  await sleep(TIMING.afterMs);
  await trickle.stop();

  const done = await settle(world, customerId, trickle, subscriptions);

  const refusedCreates = trickle.creates.filter((c) => c.status === 503);
  const refusedSignings = trickle.signings.filter((s) => s.status === 503);
  const sinceUp = (at: number, from: number) => at - Math.max(from, upAt);
  const createLag = done.creates.map((c) => sinceUp(c.caseFileAt, c.acceptedAt));
  const healthyLag = done.events.map((e) => sinceUp(e.healthyAt, e.occurredAt));
  const flakyLag = done.events.flatMap((e) => (e.flakyAt === undefined ? [] : [sinceUp(e.flakyAt, e.occurredAt)]));
  // Work that was under way when PostgreSQL went away: accepted (written) before, done after.
  const inFlightCreates = done.creates.filter((c) => c.acceptedAt < downAt && c.caseFileAt > downAt);
  const inFlightEvents = done.events.filter((e) => e.occurredAt < downAt && e.healthyAt > downAt);
  const metrics = await lastRecoveries(system);
  process.stdout.write(
    `PostgreSQL restart (${TIMING.outageMs} ms away): ${trickle.creates.length} creates (${refusedCreates.length} answered 503), ` +
      `${trickle.signings.length} signing requests (${refusedSignings.length} answered 503), ${done.events.length} events\n` +
      `  creates accepted before it went away, done after: ${JSON.stringify(spread(inFlightCreates.map((c) => c.caseFileAt - upAt)))} ms from PostgreSQL answering to the case file\n` +
      `  events written before it went away, delivered after: ${JSON.stringify(spread(inFlightEvents.map((e) => e.healthyAt - upAt)))} ms from PostgreSQL answering to the healthy subscription\n` +
      `  all creates: ${JSON.stringify(spread(createLag))} ms, all events: ${JSON.stringify(spread(healthyLag))} ms healthy, ${JSON.stringify(spread(flakyLag))} ms failing-first (from max(written, PostgreSQL answering))\n` +
      `  esign_recovery_last_seconds: ${JSON.stringify(metrics)}\n`,
  );

  // Away: refused honestly, never a 500 (nor a hang: every request was answered).
  if (unexpected(trickle.creates, 200).length + unexpected(trickle.signings, 200).length > 0) {
    for (const line of errorLines(system)) process.stdout.write(`error logged: ${line}\n`);
  }
  expect(unexpected(trickle.creates, 200)).toEqual([]);
  expect(unexpected(trickle.signings, 200)).toEqual([]);
  expect(refusedCreates.length).toBeGreaterThanOrEqual(5);
  expect(refusedCreates.every((c) => c.sentAt >= downAt - 1000 && c.sentAt <= upAt)).toBe(true);

  expect(inFlightCreates.length).toBeGreaterThanOrEqual(2);
  expect(inFlightEvents.length).toBeGreaterThanOrEqual(1);
  // Back: every create accepted and every event written, whenever, is done within the bound of
  // PostgreSQL answering (or of its own time, for those after).
  expect(Math.max(...createLag)).toBeLessThanOrEqual(TIMING.boundMs);
  expect(Math.max(...healthyLag)).toBeLessThanOrEqual(TIMING.boundMs);
  expect(Math.max(...flakyLag)).toBeLessThanOrEqual(TIMING.boundMs);
  expect(done.doubled).toEqual([]);
  // The relay timed how long the outbox took to empty once PostgreSQL answered.
  expect(metrics["casefile-worker"]?.["postgres/outbox"]).toBeLessThan(TIMING.boundMs / 1000);
}, 180_000);

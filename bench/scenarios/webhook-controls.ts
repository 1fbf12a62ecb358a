import { encryptSecret } from "@esign/db";
import { createSubscriptions, EventEmitter, openSql, type BenchSubscription } from "../support/events";
import { cpuMs } from "../support/proc";
import { Receiver } from "../support/receiver";
import { startBenchService } from "../support/services";
import { round } from "../support/stats";
import { createWorld } from "../support/world";
import { check, type BenchContext, type ScenarioResult } from "./types";

/*
 * 9. Webhook controls (issue 29): what rotation, throttling and ordering cost beside plain dispatch.
 * One subscription per mode on a local receiver (its own process, verifying every signature); only
 * the mode measured is active, so each burst goes to one subscription:
 *   plain      - a burst of events, deliveries/s from the first emit to the last arrival, dispatcher CPU per delivery;
 *   rotation   - the same with a rotation's overlap (two v1 entries: a second HMAC per delivery);
 *   ordered    - ordered: true, the burst's events spread over 10 case files (each case file's events one after the other);
 *   throttled  - maxPerSecond 5 and a burst of 1,000 events: the rate the receiver saw (its own clock,
 *                first to last arrival) must not exceed 5.25/s, and every event must arrive.
 * The dispatcher runs with NODE_ENV=development for the loopback receiver (see dispatch.ts).
 */

const BURST = 2000;
const THROTTLE_RATE = 5;
const THROTTLE_EVENTS = 1000;
const CASE_FILES = 10;

export async function webhookControlsScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const world = await createWorld(ctx.run, "controls");
  const receiver = await Receiver.start();
  const customer = await world.customer();
  const modes = ["plain", "rotation", "ordered", "throttled"] as const;
  const subs: BenchSubscription[] = await createSubscriptions(
    world.databaseUrl,
    customer,
    ctx.run.secrets.ENCRYPTION_KEY,
    modes.map((m) => ({ path: `/${m}`, url: receiver.url(`/${m}`) })),
  );
  const byMode = Object.fromEntries(modes.map((m, i) => [m, subs[i]!])) as Record<(typeof modes)[number], BenchSubscription>;
  // The receiver verifies with the current secret; during the overlap the delivery also carries the old one's v1.
  await receiver.configure(200, Object.fromEntries(subs.map((s) => [s.path, s.secret])));
  const sql = openSql(world.databaseUrl, 1);
  await sql.query(`UPDATE "WebhookSubscription" SET "previousSecretEnc" = $2, "previousSecretExpiresAt" = now() + interval '1 day' WHERE id = $1`, [
    byMode.rotation.id,
    encryptSecret("whsec_the_previous_secret", ctx.run.secrets.ENCRYPTION_KEY),
  ]);
  await sql.query(`UPDATE "WebhookSubscription" SET ordered = true WHERE id = $1`, [byMode.ordered.id]);
  await sql.query(`UPDATE "WebhookSubscription" SET "maxPerSecond" = $2 WHERE id = $1`, [byMode.throttled.id, THROTTLE_RATE]);
  const only = (id: string) => sql.query(`UPDATE "WebhookSubscription" SET "isActive" = (id = $1)`, [id]);

  const emitter = new EventEmitter(world.databaseUrl);
  const dispatcher = await startBenchService("webhook-dispatcher", {
    env: world.env({ NODE_ENV: "development", OUTBOX_RELAY_SERVICES: "webhook-dispatcher" }),
  });

  const burst = async (mode: (typeof modes)[number], events: number, payloadOf: (i: number) => object, timeoutMs: number) => {
    await only(byMode[mode].id);
    await receiver.dump(true);
    const c0 = cpuMs(dispatcher.pid);
    const t0 = performance.timeOrigin + performance.now();
    await Promise.all(Array.from({ length: events }, (_, i) => emitter.emit(customer.customerId, payloadOf(i))));
    const got = await receiver.waitFor(events, timeoutMs);
    const d = await receiver.dump(true);
    const used = cpuMs(dispatcher.pid) - c0;
    const first = Math.min(...d.at);
    const last = Math.max(...d.at);
    return {
      deliveries: got,
      expected: events,
      verifiedOk: d.verifiedOk,
      verifiedFailed: d.verifiedFailed,
      seconds: round((last - t0) / 1000, 3),
      perSecond: round(got / ((last - t0) / 1000), 1),
      /** Receiver's own clock, first to last arrival: the rate a receiver sees. */
      arrivalRate: round((got - 1) / ((last - first) / 1000), 3),
      cpuMsPerDelivery: round(used / Math.max(1, got), 3),
    };
  };

  const events = ctx.quick ? 300 : BURST;
  const throttleEvents = ctx.quick ? 50 : THROTTLE_EVENTS;
  ctx.log(`controls: warm-up, then ${events}-event bursts (plain, rotation, ordered) and ${throttleEvents} events at ${THROTTLE_RATE}/s`);
  await burst("plain", 200, () => ({ id: 1, status: 7 }), 60_000);
  const plain = await burst("plain", events, () => ({ id: 1, status: 7 }), 120_000);
  const rotation = await burst("rotation", events, () => ({ id: 1, status: 7 }), 120_000);
  const ordered = await burst("ordered", events, (i) => ({ id: 1 + (i % CASE_FILES), status: 7 }), 300_000);
  const throttled = await burst("throttled", throttleEvents, (i) => ({ id: i + 1, status: 7 }), (throttleEvents / THROTTLE_RATE) * 1000 + 60_000);

  await dispatcher.stop();
  await emitter.close();
  await sql.end();
  await receiver.stop();
  await world.db.$disconnect();

  const rotationCost = rotation.cpuMsPerDelivery / plain.cpuMsPerDelivery;
  return {
    id: "controls",
    title: "Webhook controls: rotation, ordering, throttling beside plain dispatch",
    method: [
      `One subscription per mode, only it active; ${events}-event bursts committed at once; deliveries/s = deliveries / (first emit -> last arrival).`,
      `Rotation: an overlap in force (two v1 per delivery). Ordered: the burst over ${CASE_FILES} case files. Throttled: maxPerSecond ${THROTTLE_RATE}, ${throttleEvents} events, rate from the receiver's first to last arrival.`,
    ],
    checks: [
      check("controls-plain", "Plain dispatch, 1 subscription", plain.perSecond, "deliveries/s", "context", true),
      check(
        "controls-rotation",
        "Rotation overlap: CPU per delivery vs plain",
        rotationCost,
        "x",
        "<= 1.2 x",
        rotationCost <= 1.2,
        `${rotation.perSecond} deliveries/s`,
      ),
      check("controls-ordered", `Ordered, ${CASE_FILES} case files`, ordered.perSecond, "deliveries/s", "context", ordered.deliveries === ordered.expected),
      check(
        "controls-throttle",
        `Throttled at ${THROTTLE_RATE}/s, rate seen by the receiver`,
        throttled.arrivalRate,
        "events/s",
        `<= ${THROTTLE_RATE * 1.05}/s, all ${throttleEvents} delivered`,
        throttled.arrivalRate <= THROTTLE_RATE * 1.05 && throttled.deliveries === throttleEvents,
      ),
    ],
    chart: [],
    data: { plain, rotation, ordered, throttled },
    notes: [
      `verified signatures: plain ${plain.verifiedOk}, rotation ${rotation.verifiedOk}, ordered ${ordered.verifiedOk}, throttled ${throttled.verifiedOk}; failed ${plain.verifiedFailed + rotation.verifiedFailed + ordered.verifiedFailed + throttled.verifiedFailed}`,
    ],
    wallMs: performance.now() - started,
  };
}

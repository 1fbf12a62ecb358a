import { randomUUID } from "node:crypto";
import path from "node:path";
import { Redis } from "ioredis";
import { Producer } from "@esign/queue";
import { DELIVERY_STATE, retryDelayMs, scheduleAttempt } from "@esign/webhooks";
import { BENCH_EVENT_TYPE, createSubscriptions, openSql } from "../support/events";
import { cpuPercentOver } from "../support/proc";
import { Receiver, type ReceiverDump } from "../support/receiver";
import { delayedJobHashBytes, queueMemory, type QueueMemory } from "../support/redis-memory";
import { startBenchService } from "../support/services";
import { percentiles, round } from "../support/stats";
import { createWorld } from "../support/world";
import { check, type BenchContext, type ScenarioResult } from "./types";

/*
 * 4. Retry load. 10,000 subscriptions of one customer, every endpoint answering 500.
 *
 * A real first wave of 10,000 failing attempts would keep the dispatcher busy while the first
 * retries (5 s later) already come due, so there would be no quiet moment to measure "CPU while
 * retries wait", and the firing error would mostly be queueing behind first attempts. So the state
 * a delivery has after five failed attempts is SEEDED, exactly as the dispatcher leaves it
 * (delivery row attempts=5/ladderStep=5, five attempt rows, the next attempt's delayed BullMQ job
 * added by @esign/webhooks' scheduleAttempt - the dispatcher's own function), with the 6th attempts
 * due at RETRY_RATE per second. From there everything is the real dispatcher:
 *   wave 1: the 6th attempts fire (firing error vs the seeded due time), fail with 500, and the
 *           dispatcher itself records them and schedules the 7th attempt on the first 1-hour rung,
 *           scaled by WEBHOOK_LADDER_SCALE (1 h x 0.015 = 54 s);
 *   wait:   10,000 retries pending, all scheduled by the dispatcher: Redis memory per pending
 *           retry, and dispatcher CPU while nothing is due;
 *   wave 2: the 7th attempts fire: firing error vs the nextAttemptAt the dispatcher recorded.
 */

const SUBSCRIPTIONS = 10_000;
const LADDER_SCALE = 0.015;
const RETRY_RATE = 250; // seeded 6th attempts coming due per second (~60% of what the dispatcher handles)
const SEEDED_ATTEMPTS = 5;

function firingErrors(dump: ReceiverDump, dueByPath: Map<string, number>): { errors: number[]; unmatched: number } {
  const errors: number[] = [];
  let unmatched = 0;
  dump.paths.forEach((p, i) => {
    const due = dueByPath.get(p);
    if (due === undefined) unmatched += 1;
    else errors.push(dump.at[i]! - due);
  });
  return { errors, unmatched };
}

function memorySummary(m: QueueMemory, pending: number, jobHashBytes: number) {
  const delayedZset = m.byKey.delayed ?? 0;
  return {
    pendingRetries: pending,
    totalBytes: m.totalBytes,
    bytesPerPendingRetry: round(m.totalBytes / Math.max(1, pending), 1),
    marginalBytesPerPendingRetry: round(jobHashBytes + delayedZset / Math.max(1, m.delayedCount), 1),
    jobHashBytesAvg: round(jobHashBytes, 1),
    delayedZsetBytesPerEntry: round(delayedZset / Math.max(1, m.delayedCount), 1),
    retainedCompletedJobs: m.completedCount,
    eventStreamEntries: m.streamEntries,
    byKey: m.byKey,
    jobHashes: m.jobHashes,
  };
}

export async function retryLoadScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const n = ctx.quick ? 2000 : SUBSCRIPTIONS;
  const world = await createWorld(ctx.run, "retry");
  const receiver = await Receiver.start();
  await receiver.configure(500);
  const redis = new Redis(ctx.run.redisUrl, { maxRetriesPerRequest: 3 });
  const producer = new Producer(redis, world.queuePrefix);
  const customer = await world.customer();
  const db = world.db;

  // The dispatcher runs before anything is seeded, as it would in production long before retries
  // pile up: its boot (module loading, first query compiles, V8 shrinking the start-up heap a few
  // seconds later) is not the cost of waiting.
  const dispatcher = await startBenchService("webhook-dispatcher", {
    env: world.env({ NODE_ENV: "development", WEBHOOK_LADDER_SCALE: String(LADDER_SCALE), OUTBOX_RELAY_SERVICES: "webhook-dispatcher" }),
    cpuProfDir: ctx.profile.has("webhook-dispatcher") ? path.join(ctx.profDir, `webhook-dispatcher-${world.name}`) : undefined,
  });
  try {
    await new Promise((r) => setTimeout(r, ctx.quick ? 3000 : 8000));
    // --- seed: subscriptions, one event, deliveries after 5 failures, their 6th attempt's job.
    const seedStart = Date.now();
    const subs = await createSubscriptions(
      world.databaseUrl,
      customer,
      ctx.run.secrets.ENCRYPTION_KEY,
      Array.from({ length: n }, (_, i) => ({ path: `/r/${i}`, url: receiver.url(`/r/${i}`) })),
    );
    const event = await db.event.create({
      data: {
        id: randomUUID(),
        customerId: customer.customerId,
        topic: "casefile",
        eventType: BENCH_EVENT_TYPE,
        payload: { id: 1, status: 7 },
        relayedAt: new Date(),
      },
    });
    const sql = openSql(world.databaseUrl, 2);
    const deliveries = subs.map((sub) => ({ id: randomUUID(), sub, due: 0 }));
    const seededAt = new Date();
    for (let i = 0; i < deliveries.length; i += 5000) {
      const chunk = deliveries.slice(i, i + 5000);
      await sql.query(
        `INSERT INTO "WebhookDelivery" (id, "eventId", "subscriptionId", state, attempts, "ladderStep", "lastAttemptAt", "updatedAt")
         SELECT id, $1, sub, $2, $3, $3, $4, $4 FROM unnest($5::uuid[], $6::uuid[]) AS t(id, sub)`,
        [event.id, DELIVERY_STATE.pending, SEEDED_ATTEMPTS, seededAt, chunk.map((d) => d.id), chunk.map((d) => d.sub.id)],
      );
      // The attempt log of those five failures, as recordAttempt writes it.
      await sql.query(
        `INSERT INTO "WebhookAttempt" (id, "deliveryId", "eventId", "subscriptionId", "attemptNumber", outcome, "httpStatus", cause, "durationMs", "nextAttemptAt", "createdAt")
         SELECT gen_random_uuid(), t.id, $1, t.sub, n, 'failure', 500, 'non_2xx', 2, $2, $2
           FROM unnest($3::uuid[], $4::uuid[]) AS t(id, sub), generate_series(1, $5::int) AS n`,
        [event.id, seededAt, chunk.map((d) => d.id), chunk.map((d) => d.sub.id), SEEDED_ATTEMPTS],
      );
    }
    // Due times are fixed only now, so that slow seeding cannot eat the quiet window before them.
    const firstDue = Date.now() + (ctx.quick ? 12_000 : 16_000);
    deliveries.forEach((d, i) => {
      d.due = firstDue + Math.round((i * 1000) / RETRY_RATE);
    });
    await sql.query(`UPDATE "WebhookDelivery" d SET "nextAttemptAt" = v.due FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, due) WHERE d.id = v.id`, [
      deliveries.map((d) => d.id),
      deliveries.map((d) => new Date(d.due)),
    ]);
    await sql.end();
    const memEmpty = await queueMemory(redis, world.queuePrefix, "webhooks");
    for (let i = 0; i < deliveries.length; i += 500) {
      await Promise.all(deliveries.slice(i, i + 500).map((d) => scheduleAttempt(producer, d.id, SEEDED_ATTEMPTS + 1, d.due - Date.now())));
    }
    const seedMs = Date.now() - seedStart;
    const memSeeded = await queueMemory(redis, world.queuePrefix, "webhooks");
    const seededHash = await delayedJobHashBytes(redis, world.queuePrefix, "webhooks");
    ctx.log(`  retry: seeded ${n} pending retries in ${seedMs} ms; ${round((memSeeded.totalBytes - memEmpty.totalBytes) / n, 1)} B each`);

    // --- idle window 1: retries seeded, none due yet (after a 2 s pause for the seeding's own traffic).
    await new Promise((r) => setTimeout(r, 2000));
    const idle1Ms = firstDue - Date.now() - 1000;
    const idle1 = idle1Ms >= 3000 ? await cpuPercentOver(dispatcher.pid, idle1Ms) : undefined;
    ctx.log(
      `  retry: dispatcher cpu while ${n} retries wait (seeded): ${idle1 ? `${idle1.percent}% over ${idle1.wallMs} ms ${JSON.stringify(idle1.byThread)}` : "window too short"}`,
    );

    // --- wave 1: the seeded 6th attempts.
    const wave1Due = new Map(deliveries.map((d) => [d.sub.path, d.due]));
    const lastDue1 = deliveries[deliveries.length - 1]!.due;
    await new Promise((r) => setTimeout(r, Math.max(0, lastDue1 - Date.now())));
    await receiver.waitFor(n, 60_000);
    const dump1 = await receiver.dump(true);
    const fe1 = firingErrors(dump1, wave1Due);
    ctx.log(`  retry: wave 1 firing error p50 ${percentiles(fe1.errors).p50} p99 ${percentiles(fe1.errors).p99} ms (${dump1.at.length}/${n} fired)`);

    // The dispatcher records each failure and schedules the 7th attempt itself; wait for the records.
    const deadline = Date.now() + 30_000;
    let rows: { subscriptionId: string; nextAttemptAt: Date | null; attempts: number }[] = [];
    do {
      await new Promise((r) => setTimeout(r, 250));
      rows = await db.webhookDelivery.findMany({ where: { eventId: event.id }, select: { subscriptionId: true, nextAttemptAt: true, attempts: true } });
    } while (rows.some((r) => r.attempts < SEEDED_ATTEMPTS + 1) && Date.now() < deadline);
    const pathBySub = new Map(subs.map((s) => [s.id, s.path]));
    const wave2Due = new Map(
      rows.filter((r) => r.nextAttemptAt && r.attempts === SEEDED_ATTEMPTS + 1).map((r) => [pathBySub.get(r.subscriptionId)!, r.nextAttemptAt!.getTime()]),
    );
    const firstDue2 = Math.min(...wave2Due.values());
    const lastDue2 = Math.max(...wave2Due.values());

    // --- the wait between the waves: 10,000 pending retries scheduled by the dispatcher itself.
    const memPending = await queueMemory(redis, world.queuePrefix, "webhooks");
    const pendingHash = await delayedJobHashBytes(redis, world.queuePrefix, "webhooks");
    const pending = memPending.delayedCount;
    const mem = memorySummary(memPending, pending, pendingHash);
    ctx.log(
      `  retry: ${pending} pending retries, ${mem.bytesPerPendingRetry} B each in total (${mem.marginalBytesPerPendingRetry} B marginal: job hash + delayed entry)`,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const idle2Ms = firstDue2 - Date.now() - 1000;
    const idle2 = idle2Ms >= 3000 ? await cpuPercentOver(dispatcher.pid, idle2Ms) : undefined;
    ctx.log(
      `  retry: dispatcher cpu while retries wait (between waves): ${idle2 ? `${idle2.percent}% over ${idle2.wallMs} ms ${JSON.stringify(idle2.byThread)}` : "window too short"}`,
    );

    // --- wave 2: the 7th attempts, timed by the dispatcher's own ladder.
    await new Promise((r) => setTimeout(r, Math.max(0, lastDue2 - Date.now())));
    await receiver.waitFor(wave2Due.size, 60_000);
    const dump2 = await receiver.dump(true);
    const fe2 = firingErrors(dump2, wave2Due);
    const p2 = percentiles(fe2.errors.concat(Array<number>(Math.max(0, wave2Due.size - fe2.errors.length)).fill(Infinity)));
    const p1 = percentiles(fe1.errors.concat(Array<number>(Math.max(0, n - fe1.errors.length)).fill(Infinity)));
    ctx.log(`  retry: wave 2 firing error p50 ${p2.p50} p99 ${p2.p99} ms (${dump2.at.length}/${wave2Due.size} fired)`);

    // A window that could not be measured must not read as 0 %.
    const windows = [idle1?.percent, idle2?.percent].filter((v): v is number => v !== undefined);
    const idleCpu = windows.length > 0 ? Math.max(...windows) : NaN;
    const rungMs = retryDelayMs(SEEDED_ATTEMPTS + 1, LADDER_SCALE) ?? NaN;
    return {
      id: "retry",
      title: `4. Retry load (${n.toLocaleString("en")} subscriptions answering 500)`,
      method: [
        `${n} subscriptions (one customer), one event, every endpoint answering 500; WEBHOOK_LADDER_SCALE=${LADDER_SCALE} (first 1-hour rung = ${rungMs / 1000} s).`,
        `Seeded: each delivery as the dispatcher leaves it after ${SEEDED_ATTEMPTS} failures (rows + delayed job via @esign/webhooks scheduleAttempt), 6th attempts due at ${RETRY_RATE}/s.`,
        "Wave 1 (seeded schedule) and wave 2 (schedule written by the dispatcher after wave 1's failures) are real attempts; firing error = arrival at the receiver - due time.",
        "Redis memory per pending retry: exact MEMORY USAGE of every delayed job's hash plus the delayed set's bytes per entry, measured while the dispatcher's own 10,000 retries wait; the whole queue (capped event stream, retained completed jobs) divided by the pending retries is reported beside it.",
        "CPU: /proc/<pid>/stat of the dispatcher over the quiet windows (seeded wait, and between the waves).",
      ],
      checks: [
        check(
          "retry.memory",
          "Redis memory per pending retry (its job hash + delayed-set entry)",
          mem.marginalBytesPerPendingRetry,
          "B",
          "<= 1024 B",
          mem.marginalBytesPerPendingRetry <= 1024,
          `job hash ${mem.jobHashBytesAvg} B + delayed entry ${mem.delayedZsetBytesPerEntry} B; whole queue / pending ${mem.bytesPerPendingRetry} B, incl. capped overheads: event stream ${mem.eventStreamEntries} entries = ${round((mem.byKey.events ?? 0) / 1024)} KB, ${mem.retainedCompletedJobs} retained completed jobs`,
        ),
        check(
          "retry.firing",
          "Retry firing error p99 (dispatcher-scheduled wave)",
          p2.p99,
          "ms",
          "< 100 ms",
          p2.p99 < 100,
          `p50 ${p2.p50} ms; seeded wave p99 ${p1.p99} ms`,
        ),
        check(
          "retry.idle-cpu",
          "Dispatcher CPU while retries wait",
          idleCpu,
          "%",
          "< 2 %",
          windows.length > 0 && idleCpu < 2,
          `seeded wait ${idle1?.percent ?? "n/a"}%, between waves ${idle2?.percent ?? "n/a"}%`,
        ),
      ],
      chart: [
        { group: "4. retry firing error", label: "wave 2 (dispatcher-scheduled)", latency: p2 },
        { group: "4. retry firing error", label: "wave 1 (seeded)", latency: p1 },
      ],
      data: {
        subscriptions: n,
        ladderScale: LADDER_SCALE,
        retryRatePerSecond: RETRY_RATE,
        seedMs,
        memory: {
          seeded: { ...memorySummary(memSeeded, memSeeded.delayedCount, seededHash), emptyQueueBytes: memEmpty.totalBytes },
          pendingAfterWave1: mem,
        },
        idleCpu: { seededWait: idle1, betweenWaves: idle2 },
        wave1: { fired: dump1.at.length, unmatched: fe1.unmatched, firingError: p1, spreadSeconds: round((lastDue1 - firstDue) / 1000, 1) },
        wave2: {
          fired: dump2.at.length,
          expected: wave2Due.size,
          unmatched: fe2.unmatched,
          firingError: p2,
          spreadSeconds: round((lastDue2 - firstDue2) / 1000, 1),
        },
      },
      notes: [],
      wallMs: Math.round(performance.now() - started),
    };
  } finally {
    await dispatcher.stop();
    await receiver.stop();
    await producer.close();
    redis.disconnect();
  }
}

import { decryptSecret } from "@esign/db";
import { ZSigningLinkItem, type SigningLinkItem } from "@esign/schema";
import { z } from "zod";
import { accessToken } from "../support/auth";
import { createSubscriptions, EventEmitter } from "../support/events";
import { benchAgent, post, postJson } from "../support/http";
import { createTemplate } from "../support/payload";
import { Receiver } from "../support/receiver";
import { countDelta, snapshot, untilQuiet, type CountDelta } from "../support/round-trips";
import { startBenchService, type BenchProcess } from "../support/services";
import { createWorld, type World } from "../support/world";
import type { BenchContext, ReportTable, ScenarioResult } from "./types";

/*
 * 0. Cost: PostgreSQL round trips, transactions and Redis commands per case file and per webhook
 * delivery. Counts, not timings: they do not move with the machine's load, so they compare code
 * before and after a change where timings on a shared machine cannot (issue 25).
 *
 * The whole system (gateway, casefile-worker, notifier, webhook-dispatcher) with DB_STATEMENT_METRICS
 * on, the bench's private redis-server (INFO commandstats). Stages, one after the other so each one's
 * Redis commands are its own:
 *   create -> sent      N creates (the create scenario's request), until every creation job is
 *                       completed and the services are quiet (signing requests written, events relayed);
 *   signing -> sealed   each case file's two round-0 signers sign (text), then, once the next round is
 *                       active, the third: until every case file is completed (sealed) and quiet;
 *   delivery            M events fanned out to 5 subscriptions on a receiver that verifies them.
 * The services' own background over a quiet window (BullMQ's blocking waits, sweeps, the relay's
 * heartbeat) is measured first and reported, not taken off: it is a few commands a second, and a
 * window that caught the tail of earlier work would take off what the stages did.
 */

const SUBSCRIPTIONS = 5;

const ZStoredResult = z.object({ caseFile: z.object({ id: z.number() }), signingLinksEnc: z.string() });

interface Created {
  jobId: string;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (performance.now() > deadline) throw new Error(`cost: ${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs `fn` over `items`, at most `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

async function linksOf(world: World, jobIds: string[], key: string): Promise<{ caseFileId: number; links: SigningLinkItem[] }[]> {
  const jobs = await world.db.creationJob.findMany({ where: { id: { in: jobIds } }, select: { result: true } });
  return jobs.map((j) => {
    const stored = ZStoredResult.parse(j.result);
    return { caseFileId: stored.caseFile.id, links: z.array(ZSigningLinkItem).parse(JSON.parse(decryptSecret(stored.signingLinksEnc, key))) };
  });
}

async function sign(link: SigningLinkItem): Promise<void> {
  const res = await postJson<unknown>(`${link.signingLink}/sign`, { method: "text", value: link.name }, { accept: "application/json" });
  if (res.status !== 200) throw new Error(`cost: signing as ${link.name} answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** One table row per stage: SQL per service, then Redis. */
function rows(stages: [string, CountDelta, number][], services: string[]): (string | number)[][] {
  return stages.map(([label, d, per]) => [
    `${label} (n=${per})`,
    ...services.map((s) => (d.sql[s] ? `${d.sql[s]!.roundTrips} / ${d.sql[s]!.transactions}` : "-")),
    `**${d.sql.total!.roundTrips} / ${d.sql.total!.transactions}**`,
    `**${d.redis.total}**`,
    d.redis.scripts,
    `**${d.redis.reads}**`,
    Object.entries(d.redis.byCommand)
      .slice(0, 6)
      .map(([c, v]) => `${c} ${v}`)
      .join(", "),
  ]);
}

export async function costScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const world = await createWorld(ctx.run, "cost");
  const token = ctx.run.secrets.METRICS_TOKEN;
  const caseFiles = ctx.quick ? 5 : 20;
  const events = ctx.quick ? 20 : 100;
  const receiver = await Receiver.start();
  const procs: BenchProcess[] = [];
  try {
    const gateway = await startBenchService("api-gateway", { env: world.env({ DB_STATEMENT_METRICS: "true", JOB_POLL_LIMIT_PER_MINUTE: "0" }) });
    procs.push(gateway);
    const env = world.env({ DB_STATEMENT_METRICS: "true", PUBLIC_BASE_URL: gateway.url });
    // The dispatcher in development mode for the loopback receiver only, as in the dispatch scenario.
    procs.push(
      ...(await Promise.all([
        startBenchService("casefile-worker", { env }),
        startBenchService("notifier", { env }),
        startBenchService("webhook-dispatcher", { env: { ...env, NODE_ENV: "development" } }),
      ])),
    );
    const services = procs.map((p) => p.name);
    const creds = await world.customer();
    const auth = await accessToken(gateway.url, creds);
    const tpl = createTemplate();
    const agent = benchAgent(16);
    const createUrl = new URL(`${gateway.url}/send/api/v1/casefiles/20251022/create`);
    const headers = { "content-type": tpl.contentType, "content-length": tpl.contentLength, "x-auth-token": auth };
    const quiet = () => untilQuiet(ctx.run.redisUrl, ctx.quick ? 2000 : 3000);
    const snap = () => snapshot(procs, token, ctx.run.redisUrl);

    const createAll = async (n: number): Promise<Created[]> => {
      const out: Created[] = [];
      await inParallel(
        Array.from({ length: n }, (_, i) => i),
        4,
        async () => {
          const res = await post(agent, createUrl, headers, tpl.chunks());
          if (res.status !== 200) throw new Error(`cost: create answered ${res.status}: ${res.body.slice(0, 300)}`);
          const uuid = (JSON.parse(res.body) as { jobs: { uuid: string }[] }).jobs[0]!.uuid;
          out.push({ jobId: uuid });
        },
      );
      const ids = out.map((c) => c.jobId);
      await waitFor("creation jobs completed", async () => {
        const done = await world.db.creationJob.count({ where: { id: { in: ids }, status: "completed" } });
        return done === ids.length ? true : undefined;
      });
      return out;
    };
    const signAll = async (created: Created[]) => {
      const files = await linksOf(
        world,
        created.map((c) => c.jobId),
        ctx.run.secrets.ENCRYPTION_KEY,
      );
      const ids = files.map((f) => f.caseFileId);
      const signerIds = (signers: SigningLinkItem[]) => signers.map((l) => l.signerId);
      // Round 0 (Alice, Bob), then Carla once her round is active.
      const round1 = files.flatMap((f) => f.links.filter((l) => l.role !== "Director"));
      const round2 = files.flatMap((f) => f.links.filter((l) => l.role === "Director"));
      await inParallel(round1, 4, sign);
      await waitFor("the second round active", async () => {
        const n = await world.db.signer.count({ where: { id: { in: signerIds(round2) }, activatedAt: { not: null } } });
        return n === round2.length ? true : undefined;
      });
      await inParallel(round2, 4, sign);
      await waitFor("case files completed", async () => {
        const n = await world.db.caseFile.count({ where: { id: { in: ids }, completedAt: { not: null } } });
        return n === ids.length ? true : undefined;
      });
    };

    // Warm-up: a case file through its whole life and a few deliveries; then the quiet background.
    const customer = creds.customerId;
    const emitter = new EventEmitter(world.databaseUrl, 4);
    const subs = await createSubscriptions(
      world.databaseUrl,
      creds,
      ctx.run.secrets.ENCRYPTION_KEY,
      Array.from({ length: SUBSCRIPTIONS }, (_, i) => ({ path: `/c/${i}`, url: receiver.url(`/c/${i}`) })),
    );
    await receiver.configure(200, Object.fromEntries(subs.map((s) => [s.path, s.secret])));
    try {
      await signAll(await createAll(2));
      for (let i = 0; i < 5; i++) await emitter.emit(customer);
      await receiver.waitFor(5 * SUBSCRIPTIONS, 30_000);
      await quiet();
      const i0 = await snap();
      await new Promise((r) => setTimeout(r, ctx.quick ? 2000 : 4000));
      const idle = countDelta(i0, await snap(), 1);
      const idleSeconds = idle.wallMs / 1000;

      await receiver.dump(true);
      const c0 = await snap();
      const created = await createAll(caseFiles);
      await quiet();
      const c1 = await snap();
      await signAll(created);
      await quiet();
      const c2 = await snap();

      await Promise.all(Array.from({ length: events }, () => emitter.emit(customer)));
      const delivered = await receiver.waitFor(events * SUBSCRIPTIONS, 60_000);
      await quiet();
      const c3 = await snap();
      const dump = await receiver.dump(true);
      if (delivered < events * SUBSCRIPTIONS || dump.verifiedFailed > 0)
        throw new Error(`cost: ${delivered} of ${events * SUBSCRIPTIONS} deliveries, ${dump.verifiedFailed} signatures refused`);

      const create = countDelta(c0, c1, caseFiles);
      const signing = countDelta(c1, c2, caseFiles);
      const whole = countDelta(c0, c2, caseFiles);
      const delivery = countDelta(c2, c3, events * SUBSCRIPTIONS);
      const stages: [string, CountDelta, number][] = [
        ["create -> sent, per case file", create, caseFiles],
        ["signing -> sealed, per case file", signing, caseFiles],
        ["whole life, per case file", whole, caseFiles],
        [`webhook delivery, per delivery (${SUBSCRIPTIONS} per event)`, delivery, events * SUBSCRIPTIONS],
      ];
      for (const [label, d] of stages)
        ctx.log(
          `  ${label}: SQL ${d.sql.total!.roundTrips} round trips / ${d.sql.total!.transactions} transactions, Redis ${d.redis.total} commands (${d.redis.scripts} scripts) in ${d.redis.reads} reads`,
        );
      const table: ReportTable = {
        title: "PostgreSQL round trips / transactions and Redis commands, per case file and per delivery",
        head: [
          "Stage",
          ...services.map((s) => `${s} SQL`),
          "SQL total",
          "Redis commands",
          "of them scripts (EVALSHA)",
          "Redis reads (~ round trips)",
          "busiest Redis commands",
        ],
        rows: rows(stages, services),
      };
      return {
        id: "cost",
        title: "0. Cost: round trips per case file and per delivery",
        method: [
          "Whole system in production mode (the dispatcher in development mode for the loopback receiver), DB_STATEMENT_METRICS=true: each service counts its PostgreSQL queries (round trips) and BEGINs (transactions); Redis: INFO commandstats of the private redis-server (commands run inside Lua scripts count under their own names, EVALSHA once per script call; the bench's own INFO left out), and its socket reads (INFO stats total_reads_processed, less one per INFO of the bench's own): about one per client round trip, since a pipeline's commands arrive in one write. Each reading scrapes every service twice, so that what a scrape costs them (gauges read from Redis and PostgreSQL on scrape, cached 1 s) falls outside every interval.",
          `${caseFiles} creates (the create scenario's request: 3 signers in two rounds, 2 PDFs, a cc), 4 at a time, until every creation job completed and the services went quiet; then each case file's round-0 signers sign (text), then the round-1 signer, until every case file is completed (sealed) and quiet; then ${events} events to ${SUBSCRIPTIONS} subscriptions.`,
          `The services' background over a quiet ${idleSeconds} s window (SQL ${idle.sql.total!.roundTrips} round trips, Redis ${idle.redis.total} commands: ${Object.entries(
            idle.redis.byCommand,
          )
            .map(([c, v]) => `${c} ${v}`)
            .join(", ")}) is left in the figures (stages took ${[create, signing, delivery].map((d) => `${Math.round(d.wallMs / 100) / 10} s`).join(", ")}).`,
          "Counts do not move with the machine's load: they are the before/after figures on a shared machine.",
        ],
        checks: [],
        chart: [],
        tables: [table],
        data: { caseFiles, events, subscriptions: SUBSCRIPTIONS, idle, stages: Object.fromEntries(stages.map(([label, d]) => [label, d])) },
        notes: [],
        wallMs: Math.round(performance.now() - started),
      };
    } finally {
      await emitter.close();
    }
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await receiver.stop();
  }
}

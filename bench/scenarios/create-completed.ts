import path from "node:path";
import { runOpenModel, summarize } from "../load/open-model";
import { createTemplate } from "../support/payload";
import { cpuMs, machineCpu, machineCpuMs } from "../support/proc";
import { CompletionWatch } from "../support/queue-events";
import { startBenchService, type BenchProcess } from "../support/services";
import { typedSqlByStatement, typedSqlSecondsIn, typedSqlShares } from "../support/typed-sql-cost";
import { scrapeAll } from "../support/metrics-scrape";
import { CpuSpeedProbe } from "../support/cpu-speed";
import { anatomyOf, anatomyPer, anatomyText, gcMsIn, type Anatomy } from "../support/anatomy";
import { OwnCpu, spread, spreadReason } from "../support/noise";
import { median, percentiles, round } from "../support/stats";
import { createWorld } from "../support/world";
import { startBaselineTarget, startGatewayTarget, type CreateTarget } from "./create-targets";
import { check, type BenchContext, type ScenarioResult } from "./types";

/*
 * 2. Create -> job `completed`. The whole system in production mode (gateway, casefile-worker,
 * webhook-dispatcher, notifier writing the signing-request mails), open-model
 * creates at a fixed rate; latency runs from the request's intended send time to BullMQ's
 * `completed` event of its creation job (case file, documents, 3 signers, signing links and the
 * send in one transaction). Reference in the same run, interleaved: the baseline server plus the
 * smallest consumer (one UPDATE) - the floor of "HTTP + queue hop + one write".
 */

const RATE = 100;
const P99_LIMIT_MS = 250;
const PROBE_RATES = [5, 10, 20, 30, 45, 65, 80, 90];
/** The step typed SQL's share is judged at: the machine about a third busy. */
const SQL_RATE = 20;

interface Side {
  target: CreateTarget;
  watch: CompletionWatch;
  /** The run's id: its processes and databases are what `OwnCpu` counts. */
  runId: string;
}

async function measure(side: Side, rate: number, durationMs: number, procs: BenchProcess[], drainMs = 30_000, metricsToken = "") {
  const intended = new Map<string, number>();
  // One scrape of each service before and after the step, outside its CPU window: typed SQL and GC from the same text.
  const metrics0 = metricsToken ? await scrapeAll(procs, metricsToken) : procs.map(() => undefined);
  const anatomy0 = anatomyOf(procs);
  const cpu0 = procs.map((p) => cpuMs(p.pid));
  const m0 = machineCpu();
  // Sampled through the step (OwnCpu): a PostgreSQL backend that exits within it keeps the CPU it spent
  // (two readings alone lost it, and a probe step once read -193.6 ms per create).
  const own = new OwnCpu(side.runId);
  const speed = new CpuSpeedProbe();
  const t0 = performance.now();
  const http = await runOpenModel({
    rate,
    durationMs,
    drainTimeoutMs: 20_000,
    fire: (_i, intendedAt) => side.target.fire((jobId) => intended.set(jobId, intendedAt)),
  });
  const ids = [...intended.keys()];
  const done = await side.watch.waitAll(ids, drainMs);
  const wall = performance.now() - t0;
  const cpuUsed = procs.map((p, i) => cpuMs(p.pid) - cpu0[i]!);
  const anatomy1 = anatomyOf(procs);
  const m1 = machineCpu();
  const { total: ownAll, parts: ownParts } = own.stopByPart();
  // The probe's CPU is the bench's, neither side's work: out of the step's own figures (it came in
  // after OwnCpu started, so it is in `other`).
  const probeMs = speed.cpuMs();
  const cpuSpeed = speed.stop();
  const ownMs = ownAll - probeMs;
  ownParts.other = (ownParts.other ?? 0) - probeMs;
  const metrics1 = metricsToken ? await scrapeAll(procs, metricsToken) : procs.map(() => undefined);
  const typedSql = typedSqlShares(procs, metrics0.map(typedSqlSecondsIn), metrics1.map(typedSqlSecondsIn), cpuUsed);
  const anatomy = anatomyPer(procs, anatomy0, anatomy1, metrics0.map(gcMsIn), metrics1.map(gcMsIn), done);
  const latencies = ids.map((id) => {
    const at = side.watch.completedAt.get(id);
    return at === undefined ? Infinity : at - intended.get(id)!;
  });
  // Requests that never got a 200 never produce a job: they count as infinitely slow.
  for (let i = 0; i < http.intended - ids.length; i++) latencies.push(Infinity);
  return {
    rate,
    latency: percentiles(latencies),
    latencies,
    http: summarize(http),
    completed: done,
    failedJobs: ids.filter((id) => side.watch.failed.has(id)).length,
    drainedWithinMs: done === ids.length ? Math.round(wall - durationMs) : null,
    cpuPercent: Object.fromEntries(procs.map((p, i) => [p.name, round((cpuUsed[i]! / wall) * 100, 1)])),
    // CPU each process spent per completed create: what the pipeline costs, whatever the load.
    cpuMsPerCreate: Object.fromEntries(procs.map((p, i) => [p.name, round(cpuUsed[i]! / Math.max(1, done), 2)])),
    machineBusyPercent: round(((m1.busy - m0.busy) / Math.max(1, m1.total - m0.total)) * 100, 1),
    // Everything the machine did per create: services, PostgreSQL, Redis and the load generator.
    machineCpuMsPerCreate: round(machineCpuMs(m1.busy - m0.busy) / Math.max(1, done), 1),
    // The same, of the bench's own processes only (services, baseline, PostgreSQL backends of the run,
    // its redis-server, the load generator): what a neighbour's work on the shared machine cannot inflate.
    ownCpuMsPerCreate: round(ownMs / Math.max(1, done), 1),
    // The same split by part: each service, the PDF inspectors, PostgreSQL, Redis, the load generator.
    ownCpuPartsMsPerCreate: Object.fromEntries(Object.entries(ownParts).map(([part, ms]) => [part, round(ms / Math.max(1, done), 2)])),
    // Of each service's CPU in the step, what building and compiling typed SQL took (issue 15).
    typedSql,
    // How fast the cores ran in the step (support/cpu-speed.ts): a fixed loop's CPU time.
    cpuSpeed,
    // Each process's CPU per create split into user, kernel and GC time, and its context switches (support/anatomy.ts).
    anatomy,
  };
}

export async function createCompletedScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const world = await createWorld(ctx.run, "completed");
  const tpl = createTemplate();
  const prof = (name: string) => (ctx.profile.has(name) ? path.join(ctx.profDir, `${name}-${world.name}`) : undefined);
  const system = await startGatewayTarget(ctx, world, tpl, { JOB_POLL_LIMIT_PER_MINUTE: "0" });
  const env = world.env({ PUBLIC_BASE_URL: system.proc.url });
  const workers = await Promise.all(
    (["casefile-worker", "webhook-dispatcher", "notifier"] as const).map((name) => startBenchService(name, { env, cpuProfDir: prof(name) })),
  );
  const baseline = await startBaselineTarget(ctx, world, tpl, true);
  const sides: Side[] = [
    { target: system, watch: await CompletionWatch.start(ctx.run.redisUrl, world.queuePrefix, "casefile"), runId: ctx.run.id },
    { target: baseline, watch: await CompletionWatch.start(ctx.run.redisUrl, `${world.queuePrefix}-baseline`, "casefile"), runId: ctx.run.id },
  ];
  const allProcs = [system.proc, ...workers];
  try {
    // Warm-up, discarded: 10/s, then the measured rate, on both sides alike. At 10/s alone the
    // baseline's first measured step still ran its JIT's warm-up and read 15-35% above its later ones
    // (bench/README.md round 10), which raised its median in the system's favour.
    for (const s of sides) {
      await measure(s, 10, ctx.quick ? 1500 : 3000, []);
      await measure(s, RATE, ctx.quick ? 1000 : 2000, []);
    }
    const stepMs = ctx.quick ? 3000 : 6000;
    const [sysSide, baseSide] = sides as [Side, Side];
    const log = (r: Awaited<ReturnType<typeof measure>>, who: string) =>
      ctx.log(
        `  create->completed ${who} @${r.rate}/s: p50 ${r.latency.p50} p99 ${r.latency.p99} ms (http p99 ${r.http.latency.p99}), completed ${r.completed}, cpu ms/create ${JSON.stringify(r.cpuMsPerCreate)}, machine ${r.machineBusyPercent}% busy = ${r.machineCpuMsPerCreate} ms/create, own ${r.ownCpuMsPerCreate} ms/create, fixed loops ${r.cpuSpeed.medianUs} / ${r.cpuSpeed.memoryMedianUs} us (p90 ${r.cpuSpeed.p90Us} / ${r.cpuSpeed.memoryP90Us}); user / kernel / GC per create: ${Object.entries(
          r.anatomy,
        )
          .map(([name, a]) => `${name} ${anatomyText(a)}`)
          .join("; ")}`,
      );
    // Baseline, then system and baseline `repeats` times: the system step waits (bounded) for its
    // backlog, so it cannot spill into the baseline step after it. Judged on the medians.
    const token = ctx.run.secrets.METRICS_TOKEN;
    const bases = [await measure(baseSide, RATE, stepMs, [baseline.proc])];
    log(bases[0]!, "baseline");
    const systems: Awaited<ReturnType<typeof measure>>[] = [];
    for (let i = 0; i < ctx.repeats; i++) {
      systems.push(await measure(sysSide, RATE, stepMs, allProcs, ctx.quick ? 30_000 : 90_000, token));
      log(systems.at(-1)!, "system");
      bases.push(await measure(baseSide, RATE, stepMs, [baseline.proc]));
      log(bases.at(-1)!, "baseline");
    }
    // The system repeat with the median p99 stands for the step in the figures below.
    const sysRun = [...systems].sort((a, b) => a.latency.p99 - b.latency.p99)[Math.floor(systems.length / 2)]!;
    const sysOwnCpu = median(systems.map((r) => r.ownCpuMsPerCreate));
    const baseOwnCpu = median(bases.map((r) => r.ownCpuMsPerCreate));
    const cpuRatio = baseOwnCpu > 0 ? sysOwnCpu / baseOwnCpu : NaN;

    // What the system does sustain with p99 < 250 ms: ascending rates, stop at the first rate that
    // misses twice. A step has 25-400 samples, so one machine stall (seen at 5/s with the machine
    // 13% busy: p99 822 ms) decides its p99; the create scenario repeats a missed step the same way.
    const probe: Awaited<ReturnType<typeof measure>>[] = [];
    let sustained = 0;
    const probeStep = async (rate: number, who: string) => {
      const r = await measure(sysSide, rate, ctx.quick ? 3000 : 5000, allProcs, 30_000, token);
      log(r, who);
      probe.push(r);
      return r.latency.p99 < P99_LIMIT_MS;
    };
    for (const rate of PROBE_RATES) {
      if (!(await probeStep(rate, "system (probe)")) && !(await probeStep(rate, "system (probe, again)"))) break;
      sustained = rate;
    }

    const sys = sysRun.latency;
    const base = percentiles(bases.flatMap((r) => r.latencies));
    const servicesCpu = (r: Awaited<ReturnType<typeof measure>>) =>
      round(
        Object.values(r.cpuMsPerCreate).reduce((a, b) => a + b, 0),
        1,
      );
    const totalCpuPerCreate = servicesCpu(sysRun);
    // The CPU figures of the fastest step the system kept up with (at an overload the notifier's
    // backlog is still unpaid when the creation jobs have completed).
    const kept = [...probe].reverse().find((r) => r.latency.p99 < P99_LIMIT_MS);
    // Typed SQL's share of each service's CPU: what the hot paths pay for building statements, against
    // the fixed SQL text they sent before (issue 15: at most 5%). Judged at the 20/s probe step: the
    // figure is wall time inside the compile, its CPU time only while a core is free (at 100/s the
    // machine is saturated and it counts waiting for a core too; that step's figures are in the data).
    const sqlStep = probe.find((r) => r.rate === SQL_RATE) ?? sysRun;
    const sqlShares = Object.entries(sqlStep.typedSql);
    const sqlByStatement = Object.fromEntries(
      await Promise.all(allProcs.map(async (p) => [p.name, ((await typedSqlByStatement(p, token)) ?? []).map((r) => ({ ...r, ms: round(r.ms, 1) }))] as const)),
    );
    for (const [name, rows] of Object.entries(sqlByStatement)) {
      if (rows.length > 0)
        ctx.log(
          `  typed SQL in ${name} since start: ${rows
            .slice(0, 5)
            .map((r) => `${r.statement} ${r.ms} ms / ${r.compiles}`)
            .join(", ")}`,
        );
    }
    const worstSql = sqlShares.reduce((a, b) => (b[1].percent > a[1].percent ? b : a), [
      "none",
      { compileMs: 0, cpuMs: 0, percent: 0 },
    ] as (typeof sqlShares)[number]);
    return {
      id: "completed",
      title: `2. Create -> job completed @${RATE} creates/s`,
      method: [
        "Whole system in production mode: gateway, casefile-worker (with the outbox relay), webhook-dispatcher, notifier (file outbox, no SMTP).",
        `Open model at ${RATE} creates/s for ${stepMs / 1000} s; latency = intended send time -> BullMQ 'completed' event of the creation job (read by QueueEvents); creates not completed within 90 s count as infinite.`,
        `Reference: baseline server + one-UPDATE BullMQ consumer at the same rate, run before and after each of the ${ctx.repeats} system steps; p99 and CPU per create judged on the medians.`,
        "CPU per create vs the baseline: CPU time of the bench's own processes (services or baseline, PostgreSQL backends of the run's databases, its redis-server, the load generator; support/noise.ts OwnCpu) during the step, per completed create: a neighbour's load on the shared machine is not in it.",
        `Capacity probe: ascending rates ${PROBE_RATES.join(", ")}/s (5 s each) until a rate has p99 >= ${P99_LIMIT_MS} ms twice in a row (a missed step is measured once more).`,
        "CPU per create: /proc CPU time of each service process during the step, divided by the creates completed.",
        `Typed SQL: each service's esign_typed_sql_compile_seconds (wall time inside compiles) before and after a step (scraped outside the CPU window), over its /proc CPU time in the step; judged at ${SQL_RATE}/s, where a core is free.`,
      ],
      baselineNoise: spreadReason(
        "the baseline's CPU per create",
        bases.map((r) => r.ownCpuMsPerCreate),
      ),
      checks: [
        check(
          "completed.cpu",
          `CPU per create -> completed @${RATE}/s vs the baseline's (the bench's own processes)`,
          cpuRatio,
          "x",
          "<= 1.5 x baseline (issue 25)",
          cpuRatio <= 1.5,
          `system ${spread(
            systems.map((r) => r.ownCpuMsPerCreate),
            " ms",
          )}, baseline ${spread(
            bases.map((r) => r.ownCpuMsPerCreate),
            " ms",
          )}; the whole machine (everyone's work): system ${median(systems.map((r) => r.machineCpuMsPerCreate))} ms, baseline ${median(bases.map((r) => r.machineCpuMsPerCreate))} ms`,
        ),
        check(
          "completed.p99",
          `Create -> completed p99 @${RATE}/s (median of ${systems.length})`,
          sys.p99,
          "ms",
          `< ${P99_LIMIT_MS} ms`,
          sys.p99 < P99_LIMIT_MS,
          `p99 repeats ${spread(
            systems.map((r) => r.latency.p99),
            " ms",
          )}; p50 ${sys.p50} ms; sustains ${sustained}/s with p99 < ${P99_LIMIT_MS} ms; ${kept ? `at ${kept.rate}/s the services spend ${servicesCpu(kept)} ms CPU per create and the whole machine ${kept.machineCpuMsPerCreate} ms` : `services spend ${totalCpuPerCreate} ms CPU per create`} (${RATE}/s on 2 cores leaves 20 ms for everything, PostgreSQL included); baseline p50 ${base.p50} / p99 ${base.p99} ms`,
        ),
        check(
          "completed.typed-sql",
          `Typed SQL: largest share of a service's CPU @${sqlStep.rate}/s spent building statements`,
          worstSql[1].percent,
          "%",
          "<= 5% (no hot path slower than 5%)",
          // The dispatcher runs no statement on this path: it may have no figure at a quiet step.
          ["api-gateway", "casefile-worker", "notifier"].every((name) => sqlStep.typedSql[name] !== undefined) && worstSql[1].percent <= 5,
          `${worstSql[0]}; all: ${sqlShares.map(([name, x]) => `${name} ${x.percent}% (${x.compileMs} of ${x.cpuMs} ms)`).join(", ")}; @${RATE}/s (saturated, an upper bound): ${Object.entries(
            sysRun.typedSql,
          )
            .map(([name, x]) => `${name} ${x.percent}%`)
            .join(", ")}`,
        ),
      ],
      chart: [
        { group: `2. create->completed @${RATE}/s`, label: "system", latency: sys },
        { group: `2. create->completed @${RATE}/s`, label: "baseline+1-UPDATE worker", latency: base },
        ...(probe.length > 0
          ? [
              {
                group: `2. create->completed @${RATE}/s`,
                label: `system @${probe[probe.length - 1]!.rate}/s (probe)`,
                latency: probe[probe.length - 1]!.latency,
              },
            ]
          : []),
      ],
      data: {
        rate: RATE,
        system: (({ latencies: _l, ...r }) => r)(sysRun),
        systemRepeats: systems.map(({ latencies: _l, ...r }) => r),
        baseline: { latency: base, runs: bases.map(({ latencies: _l, ...r }) => r) },
        ownCpuMsPerCreate: { system: sysOwnCpu, baseline: baseOwnCpu, ratio: round(cpuRatio, 2) },
        probe: { sustainedRate: sustained, steps: probe.map(({ latencies: _l, ...r }) => r) },
        cpuMsPerCreate: { ...sysRun.cpuMsPerCreate, total: totalCpuPerCreate },
        typedSqlByStatement: sqlByStatement,
      },
      notes: [
        `CPU per create @${RATE}/s by part (medians of the steps; the bench's own processes): system ${partsLine(systems)}; baseline ${partsLine(bases)}`,
        `What each process's CPU per create was made of (support/anatomy.ts; user / kernel / GC ms, then voluntary + involuntary context switches per create), each step in order: system ${anatomyLine(systems)}; baseline ${anatomyLine(bases)}`,
        // At an overload the backlog's queueing is paid per create too (round 22: 21.5-22.8 ms at 80/s,
        // 20.5-30.2 ms at 100/s on a machine that kept up with 65/s): the cost by rate says whether
        // the 100/s figure measured the system or its overload.
        `The system's CPU per create by rate (the bench's own processes; each probe step, then the ${RATE}/s repeats; p99 in brackets, * where it missed ${P99_LIMIT_MS} ms): ${[
          ...probe,
          ...systems,
        ]
          .map((r) => `${r.rate}/s ${r.ownCpuMsPerCreate} ms (${Math.round(r.latency.p99)}${r.latency.p99 < P99_LIMIT_MS ? "" : "*"})`)
          .join(", ")}; the baseline @${RATE}/s ${bases.map((r) => r.ownCpuMsPerCreate).join(", ")} ms`,
        `How fast the cores ran (support/cpu-speed.ts: CPU microseconds of a fixed loop in registers and of a walk through memory, median of each step): system ${systems.map((r) => `${r.cpuSpeed.medianUs} / ${r.cpuSpeed.memoryMedianUs}`).join(", ")}; baseline ${bases.map((r) => `${r.cpuSpeed.medianUs} / ${r.cpuSpeed.memoryMedianUs}`).join(", ")}`,
      ],
      wallMs: Math.round(performance.now() - started),
    };
  } finally {
    await Promise.all(sides.map((s) => s.watch.close()));
    await Promise.all([...allProcs, baseline.proc].map((p) => p.stop()));
  }
}

/** Each step's anatomy, process by process: "[gateway a; worker b] [...]". */
function anatomyLine(steps: readonly { anatomy: Record<string, Anatomy> }[]): string {
  return steps
    .map(
      (s) =>
        `[${Object.entries(s.anatomy)
          .map(([name, a]) => `${name} ${anatomyText(a)}`)
          .join("; ")}]`,
    )
    .join(" ");
}

/** "part ms, part ms, ..." of the steps' medians, largest first. */
function partsLine(steps: readonly { ownCpuPartsMsPerCreate: Record<string, number> }[]): string {
  const parts = [...new Set(steps.flatMap((s) => Object.keys(s.ownCpuPartsMsPerCreate)))];
  return parts
    .map((part) => [part, round(median(steps.map((s) => s.ownCpuPartsMsPerCreate[part] ?? 0)), 2)] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([part, ms]) => `${part} ${ms} ms`)
    .join(", ");
}

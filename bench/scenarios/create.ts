import { runOpenModel, summarize, type OpenModelResult } from "../load/open-model";
import { CREATE_STAGES, readStages, stageMeans } from "../support/create-stages";
import { createTemplate } from "../support/payload";
import { childrenCpuMs, cpuMs } from "../support/proc";
import { BASELINE_FLIPS_LIMIT, spread } from "../support/noise";
import { median, percentiles, round } from "../support/stats";
import { createWorld } from "../support/world";
import { startBaselineTarget, startGatewayTarget, type CreateTarget } from "./create-targets";
import { check, type BenchContext, type ReportTable, type ScenarioResult } from "./types";

/*
 * 1. Create. Open-model steps at fixed rates against the gateway (production mode, auth + full
 * validation + staging + commit + one Prisma insert + one BullMQ job) and, interleaved step by step,
 * against the baseline server doing only the irreducible work. Workers are NOT running: both sides
 * only enqueue, so the comparison is the create endpoint alone (scenario 2 covers the pipeline).
 *
 * Max sustained rate: geometric ramp (x1.4) until a step misses "p99 < 100 ms and no failures"
 * (a miss is re-run once, so one noisy moment on the shared machine does not end the search),
 * then two bisection steps between the last pass and the first miss, then a recheck of each side's
 * first miss (and 15% above it when that passes), interleaved.
 */

const P99_LIMIT_MS = 100;
const START_RATE = 30;
const GROWTH = 1.4;
const MAX_RATE = 800;

interface Search {
  target: CreateTarget;
  lastPass: number;
  firstFail: number | undefined;
  confirmed: Set<number>;
  bisections: number;
  next: number | undefined;
  steps: StepFigures[];
}

/** One step's figures: medians of its repeats, judged on them; `p99s` and `passes` are the repeats'. */
interface StepFigures {
  rate: number;
  pass: boolean;
  p50: number;
  p99: number;
  failed: number;
  failures: Record<string, number>;
  throughput: number;
  cpuPct: number;
  inspectMsPerCreate: number;
  p99s: number[];
  passes: boolean[];
  /** The gateway's mean ms per request in each stage (median of the repeats); the system only. */
  stagesMs?: Record<string, number>;
  /** The gateway's event-loop delay p99 over the step (median of the repeats). */
  loopLagP99Ms?: number;
}

const sustained = (r: OpenModelResult) => r.latency.p99 < P99_LIMIT_MS && r.failed + r.dropped + r.timedOut === 0;

async function step(t: CreateTarget, rate: number, durationMs: number, metricsToken: string) {
  // The gateway's stage sums and loop delay, read outside the CPU window (the baseline has none).
  const s0 = t.name === "system" ? await readStages(t.proc, metricsToken) : undefined;
  const c0 = cpuMs(t.proc.pid);
  // The gateway opens every upload in child processes (PDF inspectors): their CPU, per create.
  const i0 = childrenCpuMs(t.proc.pid);
  const t0 = performance.now();
  const r = await runOpenModel({ rate, durationMs, drainTimeoutMs: 15_000, maxInFlight: 4000, fire: () => t.fire() });
  const cpuPct = round(((cpuMs(t.proc.pid) - c0) / (performance.now() - t0)) * 100, 1);
  const inspectMsPerCreate = round((childrenCpuMs(t.proc.pid) - i0) / Math.max(1, r.ok), 2);
  const s1 = s0 ? await readStages(t.proc, metricsToken) : undefined;
  return { r, cpuPct, inspectMsPerCreate, stages: s0 && s1 ? stageMeans(s0, s1) : undefined };
}

/**
 * A step run `repeats` times in a row, judged on the medians (p99, failures): one stall of the
 * shared machine in one repeat does not decide it. The repeats' p99s are kept for the spread.
 */
async function repeatedStep(t: CreateTarget, rate: number, durationMs: number, repeats: number, metricsToken: string): Promise<StepFigures> {
  const runs: Awaited<ReturnType<typeof step>>[] = [];
  for (let i = 0; i < repeats; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 300));
    runs.push(await step(t, rate, durationMs, metricsToken));
  }
  const staged = runs.flatMap((x) => (x.stages ? [x.stages] : []));
  const stagesMs =
    staged.length > 0
      ? Object.fromEntries(CREATE_STAGES.map((st) => [st, median(staged.flatMap((x) => (x.meanMs[st] === undefined ? [] : [x.meanMs[st]!])))]))
      : undefined;
  const failedOf = (r: OpenModelResult) => r.failed + r.dropped + r.timedOut;
  const p99s = runs.map((x) => x.r.latency.p99);
  const failed = median(runs.map((x) => failedOf(x.r)));
  const p99 = median(p99s);
  const failures: Record<string, number> = {};
  for (const x of runs) for (const [k, v] of Object.entries(x.r.failures)) failures[k] = (failures[k] ?? 0) + v;
  return {
    rate,
    pass: p99 < P99_LIMIT_MS && failed === 0,
    p50: median(runs.map((x) => x.r.latency.p50)),
    p99,
    failed,
    failures,
    throughput: median(runs.map((x) => x.r.throughput)),
    cpuPct: median(runs.map((x) => x.cpuPct)),
    inspectMsPerCreate: median(runs.map((x) => x.inspectMsPerCreate)),
    p99s,
    passes: runs.map((x) => sustained(x.r)),
    stagesMs,
    loopLagP99Ms: staged.length > 0 ? median(staged.map((x) => x.loopLagP99Ms)) : undefined,
  };
}

/**
 * The baseline's own noise: steps whose repeats disagreed (one passed, another missed). More than
 * BASELINE_FLIPS_LIMIT of them, or one at the rate its maximum rests on, and the ratio measures the
 * machine (support/noise.ts).
 */
function createBaselineNoise(s: Search): string[] {
  const flipped = s.steps.filter((st) => st.passes.some((p) => p !== st.passes[0]));
  const atMax = flipped.some((st) => st.rate === s.lastPass);
  if (flipped.length <= BASELINE_FLIPS_LIMIT && !atMax) return [];
  return [
    `the baseline's repeats disagreed (pass and miss at one rate) at ${flipped.map((st) => `${st.rate}/s (p99 ${st.p99s.join(", ")} ms)`).join(", ")}${atMax ? ", its maximum among them" : ""} (limit ${BASELINE_FLIPS_LIMIT} step, not its maximum)`,
  ];
}

/** The gateway's stages at each rate the system was measured at (mean ms per request, median of repeats). */
function stageTable(s: Search): ReportTable {
  const steps = [...s.steps].filter((st) => st.stagesMs).sort((a, b) => a.rate - b.rate);
  return {
    title: "Where a create's time goes in the gateway, by rate (mean ms per request in each stage; event-loop delay p99; median of the repeats)",
    head: ["Rate", "p99 (ms)", ...CREATE_STAGES, "sum of stages", "event-loop delay p99 (ms)", "PDF inspectors' CPU ms/create"],
    rows: steps.map((st) => {
      const ms = st.stagesMs ?? {};
      const sum = CREATE_STAGES.reduce((a, k) => a + (Number.isFinite(ms[k]) ? ms[k]! : 0), 0);
      return [
        `${st.rate}/s${st.pass ? "" : " (miss)"}`,
        st.p99,
        ...CREATE_STAGES.map((k) => (Number.isFinite(ms[k]) ? ms[k]! : "-")),
        round(sum, 2),
        st.loopLagP99Ms ?? "-",
        st.inspectMsPerCreate,
      ];
    }),
  };
}

/** The PDF inspection's cost (the gateway's child processes), median over the system's passing steps. */
function inspectionNote(s: Search): string {
  const per = s.steps
    .filter((x) => x.pass)
    .map((x) => x.inspectMsPerCreate)
    .sort((a, b) => a - b);
  const median = per.length > 0 ? per[Math.floor(per.length / 2)] : undefined;
  return `Every upload is opened before the answer (two per create), in the gateway's PDF inspector processes: ${median === undefined ? "n/a" : `${median} ms`} of their CPU per create (median of the passing steps), counted in neither side's cpu % but in the ratio's machine.`;
}

export async function createScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const world = await createWorld(ctx.run, "create");
  const tpl = createTemplate();
  const [system, baseline] = await Promise.all([startGatewayTarget(ctx, world, tpl), startBaselineTarget(ctx, world, tpl)]);
  const stepMs = ctx.quick ? 2000 : 4000;
  const pause = () => new Promise((r) => setTimeout(r, 500));
  try {
    // Warm-up: JIT, connection pools, lazily loaded modules.
    for (const t of [system, baseline]) await runOpenModel({ rate: 20, durationMs: ctx.quick ? 1500 : 3000, fire: () => t.fire() });

    const searches: Search[] = [system, baseline].map((target) => ({
      target,
      lastPass: 0,
      firstFail: undefined,
      confirmed: new Set(),
      bisections: 0,
      next: START_RATE,
      steps: [],
    }));
    for (let round_ = 0; searches.some((s) => s.next !== undefined) && round_ < 16; round_++) {
      // Alternate which side goes first, so neither always runs on a machine the other just heated.
      const order = round_ % 2 === 0 ? searches : [...searches].reverse();
      for (const s of order) {
        const rate = s.next;
        if (rate === undefined) continue;
        const f = await repeatedStep(s.target, rate, stepMs, ctx.repeats, ctx.run.secrets.METRICS_TOKEN);
        const pass = f.pass;
        s.steps.push(f);
        const inspect = s.target.name === "system" ? `, PDF inspection ${f.inspectMsPerCreate} ms CPU/create` : "";
        ctx.log(
          `  create ${s.target.name} @${rate}/s: p50 ${f.p50} p99 ${f.p99} ms (repeats ${f.p99s.join(", ")}), failed ${f.failed}${f.failed ? ` ${JSON.stringify(f.failures)}` : ""}, cpu ${f.cpuPct}%${inspect} -> ${pass ? "pass" : "miss"}`,
        );
        if (pass) {
          s.lastPass = Math.max(s.lastPass, rate);
        } else if (ctx.repeats === 1 && !s.confirmed.has(rate)) {
          s.confirmed.add(rate); // a single run: re-run a miss once before believing it
          await pause();
          continue;
        } else {
          s.firstFail = Math.min(s.firstFail ?? Infinity, rate);
        }
        if (s.firstFail === undefined) {
          const grown = Math.round(rate * GROWTH);
          s.next = grown > MAX_RATE ? undefined : grown;
        } else if (s.bisections < 2 && s.firstFail / Math.max(s.lastPass, 1) > 1.12) {
          s.bisections += 1;
          s.next = Math.round(s.lastPass > 0 ? Math.sqrt(s.lastPass * s.firstFail) : s.firstFail / 2);
        } else {
          s.next = undefined;
        }
        await pause();
      }
    }
    // Recheck, interleaved: noise on a shared machine only ever makes a step slower, so a miss may
    // be a busy moment. Each side gets its first miss once more (and 15% above it if that passes).
    for (let extra = 0; extra < 2; extra++) {
      for (const s of extra % 2 === 0 ? searches : [...searches].reverse()) {
        const rate = extra === 0 ? s.firstFail : s.lastPass > (s.firstFail ?? Infinity) - 1 ? Math.round(s.lastPass * 1.15) : undefined;
        if (rate === undefined || rate > MAX_RATE) continue;
        const f = await repeatedStep(s.target, rate, stepMs, ctx.repeats, ctx.run.secrets.METRICS_TOKEN);
        const pass = f.pass;
        s.steps.push(f);
        ctx.log(
          `  create ${s.target.name} @${rate}/s (recheck): p50 ${f.p50} p99 ${f.p99} ms (repeats ${f.p99s.join(", ")}), cpu ${f.cpuPct}% -> ${pass ? "pass" : "miss"}`,
        );
        if (pass) s.lastPass = Math.max(s.lastPass, rate);
        await pause();
      }
    }
    const [sysSearch, baseSearch] = searches as [Search, Search];

    // p50/p99 at 50% of each side's own max, interleaved twice.
    const half = (s: Search) => Math.max(1, Math.round(s.lastPass / 2));
    const halfRuns: Record<string, OpenModelResult[]> = { system: [], baseline: [] };
    for (let i = 0; i < 2; i++) {
      for (const s of i === 0 ? searches : [...searches].reverse()) {
        const { r } = await step(s.target, half(s), ctx.quick ? 2000 : 5000, ctx.run.secrets.METRICS_TOKEN);
        halfRuns[s.target.name]!.push(r);
        await pause();
      }
    }
    const merged = (name: string) => {
      const runs = halfRuns[name]!;
      const samples = runs.flatMap((r) => [...r.samples, ...Array<number>(r.intended - r.ok).fill(Infinity)]);
      return percentiles(samples);
    };
    const sysHalf = merged("system");
    const baseHalf = merged("baseline");
    const ratio = baseSearch.lastPass > 0 ? sysSearch.lastPass / baseSearch.lastPass : NaN;
    const atMax = (x: Search) => {
      const at = x.steps.filter((st) => st.rate === x.lastPass).at(-1);
      return at ? spread(at.p99s, " ms") : "n/a";
    };

    return {
      id: "create",
      title: "1. Create (3 signers, two 100 KB PDFs)",
      method: [
        "Gateway in production mode (JWT auth, full payload validation, staged + committed content-addressed files, one INSERT of the creation job, one BullMQ job); workers not running.",
        "Baseline: express + multer, stream-hash-write files, JSON.parse, one pg INSERT, one BullMQ job (bench/baselines/create-server.ts).",
        `Open-model steps of ${stepMs / 1000} s, each run ${ctx.repeats} x and judged on the median p99 and failures; ramp x${GROWTH} from ${START_RATE}/s, then bisection; system and baseline steps interleaved.`,
        "Every request uploads two different 100 KB PDFs (fresh nonce per file, so content addressing cannot deduplicate).",
      ],
      checks: [
        check(
          "create.ratio",
          "Create throughput vs baseline (max rate with p99 < 100 ms)",
          ratio,
          "x",
          ">= 1.0 x baseline (issue 25; was 0.8)",
          ratio >= 1.0,
          `system ${sysSearch.lastPass}/s, baseline ${baseSearch.lastPass}/s; p99 at each side's max, repeats: ${atMax(sysSearch)} / ${atMax(baseSearch)}`,
        ),
      ],
      baselineNoise: createBaselineNoise(baseSearch),
      chart: [
        { group: "1. create @50% of max", label: `system @${half(sysSearch)}/s`, latency: sysHalf },
        { group: "1. create @50% of max", label: `baseline @${half(baseSearch)}/s`, latency: baseHalf },
      ],
      data: {
        maxSustained: { system: sysSearch.lastPass, baseline: baseSearch.lastPass, ratio: round(ratio, 3) },
        atHalf: {
          system: { rate: half(sysSearch), latency: sysHalf, runs: halfRuns.system!.map(summarize) },
          baseline: { rate: half(baseSearch), latency: baseHalf, runs: halfRuns.baseline!.map(summarize) },
        },
        steps: { system: sysSearch.steps, baseline: baseSearch.steps },
      },
      notes: [inspectionNote(sysSearch)],
      tables: [stageTable(sysSearch)],
      wallMs: Math.round(performance.now() - started),
    };
  } finally {
    await Promise.all([system.proc.stop(), baseline.proc.stop()]);
  }
}

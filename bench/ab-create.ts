import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { runOpenModel } from "./load/open-model";
import { createTemplate } from "./support/payload";
import { startPrivateRedis } from "./support/private-redis";
import { childrenCpuMs, cpuMs, machineCpu, machineCpuMs } from "./support/proc";
import { round } from "./support/stats";
import { pairedRatios, spreadOf, variantsOf, withinNoise, type AbArm } from "./support/ab";
import type { BenchContext } from "./scenarios/types";
import type { CreateTarget } from "./scenarios/create-targets";

/*
 * Paired A/B of the create endpoint between this checkout and other checkouts of the repository
 * (`git worktree add <dir> <commit>`): the question "does tree B do more work per create than tree
 * A?", which the create scenario's max-rate ratio cannot answer on a shared 2-core machine (the same
 * code read 269/s and 409/s in two runs, bench/README.md round 7).
 *
 * Every tree's gateway runs at once, each from its own bundle against its own database (migrated by
 * its own code) and the same private Redis; then, round after round, each is given the same fixed
 * rate for one step, in an order that alternates, so a drift of the machine falls on all of them
 * alike. The figures per create are CPU: the gateway process (all its threads), its PDF inspectors,
 * and the whole machine (/proc/stat: PostgreSQL, Redis and the load generator included). The
 * verdict is the median of the per-round ratios against this tree, with their spread; a ratio whose
 * spread includes 1.0 is within noise.
 *
 * pnpm bench:ab --against /work/wt-old[,/work/wt-older] [--base /work/wt-old] [--rate 150] [--rounds 8] [--step-ms 6000]
 * [--variant "name:KEY=VALUE,KEY=VALUE|other:KEY=VALUE"] [--profile]
 * (--base: the tree the ratios are taken against, this checkout by default; --variant: this checkout
 * again with other settings, an arm of its own)
 */

interface StepFigures {
  ok: number;
  p99: number;
  gatewayMs: number;
  inspectorsMs: number;
  machineMs: number;
}

interface TreeModules {
  world: typeof import("./support/world");
  targets: typeof import("./scenarios/create-targets");
  build: () => Promise<void>;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = process.argv[i + 1];
  return v && !v.startsWith("--") ? v : "";
}

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The tree's own bench helpers and build (identical in shape since round 1 of the bench). */
async function modulesOf(dir: string): Promise<TreeModules> {
  const world = (await import(path.join(dir, "bench/support/world.ts"))) as TreeModules["world"];
  const targets = (await import(path.join(dir, "bench/scenarios/create-targets.ts"))) as TreeModules["targets"];
  // Each tree builds its bundles with its own script, in its own process (its esbuild, its entry points).
  const build = async () => void execFileSync("pnpm", ["--silent", "build"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  return { world, targets, build };
}

function commitOf(dir: string): string {
  const head = execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const dirty = execFileSync("git", ["-C", dir, "status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim();
  return dirty ? `${head}+changes` : head;
}

async function step(target: CreateTarget, rate: number, durationMs: number): Promise<StepFigures> {
  const g0 = cpuMs(target.proc.pid);
  const i0 = childrenCpuMs(target.proc.pid);
  const m0 = machineCpu();
  const r = await runOpenModel({ rate, durationMs, drainTimeoutMs: 15_000, maxInFlight: 4000, fire: () => target.fire() });
  const m1 = machineCpu();
  const per = (ms: number) => round(ms / Math.max(1, r.ok), 3);
  return {
    ok: r.ok,
    p99: round(r.latency.p99, 1),
    gatewayMs: per(cpuMs(target.proc.pid) - g0),
    inspectorsMs: per(childrenCpuMs(target.proc.pid) - i0),
    machineMs: per(machineCpuMs(m1.busy - m0.busy)),
  };
}

async function main(): Promise<void> {
  const against = (arg("against") ?? "").split(",").filter(Boolean);
  const variantSpec = arg("variant");
  if (against.length === 0 && !variantSpec) throw new Error("--against <dir>[,<dir>] (checkouts of other commits: git worktree add) or --variant is required");
  const rate = Number(arg("rate") || 150);
  const rounds = Math.trunc(Number(arg("rounds") || 8));
  const stepMs = Math.trunc(Number(arg("step-ms") || 6000));
  const baseDir = arg("base");
  const profile = arg("profile") !== undefined;
  if (!(rate > 0 && rounds > 0 && stepMs >= 1000)) throw new Error("--rate, --rounds and --step-ms take positive numbers (step at least 1000 ms)");

  const here = path.resolve(__dirname, "..");
  const trees: AbArm[] = [
    ...[here, ...against.map((d) => path.resolve(d))].map((dir) => ({ dir, label: commitOf(dir), env: {} })),
    ...variantsOf(variantSpec, here, commitOf(here)),
  ];
  // Two checkouts of one commit (a control arm) would share a label, and so their figures: tell them apart by folder.
  for (const tree of trees) if (trees.some((t) => t !== tree && t.label === tree.label)) tree.label = `${tree.label}@${path.basename(tree.dir)}`;
  const base = baseDir ? trees.find((t) => t.dir === path.resolve(baseDir)) : trees[0];
  if (!base) throw new Error(`--base ${baseDir} is neither this checkout nor one of --against`);
  const redis = await startPrivateRedis();
  process.env.BENCH_REDIS_URL = redis.url;
  const started: { tree: AbArm; target: CreateTarget; cleanup: () => Promise<void> }[] = [];
  const built = new Set<string>();
  try {
    for (const tree of trees) {
      log(`building and starting ${tree.label} (${tree.dir})`);
      const m = await modulesOf(tree.dir);
      if (!built.has(tree.dir)) await m.build();
      built.add(tree.dir);
      const run = m.world.newRun();
      const world = await m.world.createWorld(run, "ab");
      // --profile: each gateway writes a V8 CPU profile under bench/results/profiles/ab-<run>/ when it stops.
      const profDir = path.join(here, "bench/results/profiles", `ab-${run.id}`, tree.label.replace(/[^A-Za-z0-9+.-]/g, "_"));
      const ctx = { run, profile: new Set<string>(profile ? ["api-gateway"] : []), profDir } as unknown as BenchContext;
      const target = await m.targets.startGatewayTarget(ctx, world, createTemplate(), tree.env);
      started.push({ tree, target, cleanup: () => m.world.cleanupRun(run) });
    }
    // Warm-up: JIT, pools, the inspectors' first files; then one step at the rate itself, not
    // counted (after 60/s alone, every arm's first round at 280/s read p99 in seconds).
    for (const s of started) {
      await runOpenModel({ rate: Math.min(rate, 60), durationMs: 3000, fire: () => s.target.fire() });
      await runOpenModel({ rate, durationMs: Math.min(stepMs, 3000), drainTimeoutMs: 15_000, maxInFlight: 4000, fire: () => s.target.fire() });
    }

    const figures = new Map<string, StepFigures[]>(trees.map((t) => [t.label, []]));
    for (let round_ = 0; round_ < rounds; round_++) {
      const order = round_ % 2 === 0 ? started : [...started].reverse();
      for (const s of order) {
        const f = await step(s.target, rate, stepMs);
        figures.get(s.tree.label)!.push(f);
        log(
          `  round ${round_ + 1} ${s.tree.label} @${rate}/s: ok ${f.ok}, p99 ${f.p99} ms, CPU ms/create: gateway ${f.gatewayMs}, inspectors ${f.inspectorsMs}, machine ${f.machineMs}`,
        );
        await new Promise((r) => setTimeout(r, 500));
      }
    }

    const reference = figures.get(base.label)!;
    const lines = [
      `# Create A/B, paired: ${rounds} rounds of ${stepMs / 1000} s at ${rate}/s`,
      "",
      `Run at ${new Date().toISOString()} (\`pnpm bench:ab --against ${against.join(",")}${baseDir ? ` --base ${baseDir}` : ""}${variantSpec ? ` --variant "${variantSpec}"` : ""} --rate ${rate} --rounds ${rounds} --step-ms ${stepMs}\`). Figures are CPU ms per create: median (q1-q3) over the rounds. Ratios are per round against ${base.label}${base === trees[0] ? " (this checkout)" : ""}; within noise when the q1-q3 range of the ratio includes 1.0 (a ratio marked * does not).`,
      "",
      "| Tree | gateway | PDF inspectors | machine | p99 (ms) | gateway ratio | machine ratio | p99 ratio |",
      "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ];
    const fmt = (xs: number[]) => {
      const s = spreadOf(xs);
      return `${s.median} (${s.q1}-${s.q3})`;
    };
    for (const t of trees) {
      const f = figures.get(t.label)!;
      const ratio = (k: "gatewayMs" | "machineMs" | "p99") => {
        if (t === base) return "1";
        const ratios = pairedRatios(
          f.map((x) => x[k]),
          reference.map((x) => x[k]),
        );
        return `${fmt(ratios)}${withinNoise(spreadOf(ratios)) ? "" : " *"}`;
      };
      lines.push(
        `| ${t.label} | ${fmt(f.map((x) => x.gatewayMs))} | ${fmt(f.map((x) => x.inspectorsMs))} | ${fmt(f.map((x) => x.machineMs))} | ${fmt(f.map((x) => x.p99))} | ${ratio("gatewayMs")} | ${ratio("machineMs")} | ${ratio("p99")} |`,
      );
    }
    const report = lines.join("\n");
    log(`\n${report}`);
    const out = path.join(
      here,
      "bench/results",
      `${new Date().toISOString().slice(0, 10)}-ab-create-${rate}-${trees.map((t) => t.label.replace(/[^A-Za-z0-9+.-]/g, "_")).join("-vs-")}.md`,
    );
    writeFileSync(
      out,
      `${report}\n\nEvery step:\n\n${[...figures].map(([k, v]) => `- ${k}: ${v.map((x) => `${x.gatewayMs}/${x.inspectorsMs}/${x.machineMs}`).join(", ")}`).join("\n")}\n`,
    );
    log(`written ${path.relative(here, out)}`);
  } finally {
    for (const s of started) {
      await s.target.proc.stop();
      await s.cleanup().catch(() => undefined);
    }
    await redis.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);

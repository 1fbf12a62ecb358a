// `pnpm bench`: starts the platform in production mode against local PostgreSQL and Redis, runs each
// scenario (with its baseline, interleaved, in this same run) and writes bench/results/<date>.json,
// <date>.md (summary with pass/short per target) and <date>.svg (latency percentiles).
// Options: --only cost,create,completed,dispatch,retry,upload,seal,sql,search,controls,inspect   --quick   --repeats <n> (default 3)   --profile api-gateway,webhook-dispatcher,...
//          --keep (keep databases, Redis keys and files)   --out <dir>
//          --redis local (use the shared local Redis as it is configured, instead of a private
//          redis-server with the production settings)   --redis-hz <n> (private server, another hz)
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildServices } from "../scripts/build-services";
import { ensurePostgres } from "../scripts/up/ensure-postgres";
import { ensureRedis } from "../scripts/up/ensure-redis";
import { flameGraph } from "./report/flame";
import { renderMarkdown } from "./report/markdown";
import { renderSvg } from "./report/svg";
import { costScenario } from "./scenarios/cost";
import { createScenario } from "./scenarios/create";
import { inspectAbuseScenario } from "./scenarios/inspect-abuse";
import { createCompletedScenario } from "./scenarios/create-completed";
import { dispatchScenario } from "./scenarios/dispatch";
import { largeUploadScenario } from "./scenarios/large-upload";
import { retryLoadScenario } from "./scenarios/retry-load";
import { sealScenario } from "./scenarios/seal";
import { searchScenario } from "./scenarios/search";
import { typedSqlScenario } from "./scenarios/typed-sql";
import { webhookControlsScenario } from "./scenarios/webhook-controls";
import type { BenchContext, Scenario, ScenarioResult } from "./scenarios/types";
import { summarizeProfile } from "./support/cpuprofile";
import { startPrivateRedis } from "./support/private-redis";
import { foreignCpuPercent, judge, OwnCpu } from "./support/noise";
import { machineCpu, pressurePercent, pressureTotals, stallSummary } from "./support/proc";
import { cleanupRun, newRun } from "./support/world";

const ROOT = path.resolve(__dirname, "..");

const SCENARIOS: Record<string, Scenario> = {
  cost: costScenario,
  create: createScenario,
  completed: createCompletedScenario,
  dispatch: dispatchScenario,
  retry: retryLoadScenario,
  upload: largeUploadScenario,
  seal: sealScenario,
  sql: typedSqlScenario,
  search: searchScenario,
  controls: webhookControlsScenario,
  inspect: inspectAbuseScenario,
};

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = process.argv[i + 1];
  return v && !v.startsWith("--") ? v : "";
}

async function main(): Promise<number> {
  const only = arg("only")?.split(",").filter(Boolean) ?? Object.keys(SCENARIOS);
  for (const name of only) if (!SCENARIOS[name]) throw new Error(`unknown scenario "${name}"; known: ${Object.keys(SCENARIOS).join(", ")}`);
  const quick = arg("quick") !== undefined;
  const repeats = Math.max(1, Math.trunc(Number(arg("repeats") || 3)));
  if (!Number.isFinite(repeats)) throw new Error("--repeats takes a number");
  const keep = arg("keep") !== undefined;
  const outDir = path.resolve(ROOT, arg("out") || "bench/results");
  const run = newRun();
  const profDir = path.join(outDir, "profiles", run.id);
  const ctx: BenchContext = {
    run,
    quick,
    repeats,
    profile: new Set(arg("profile")?.split(",").filter(Boolean) ?? []),
    profDir,
    log: (m) => process.stdout.write(`${m}\n`),
  };

  await ensurePostgres(run.postgresBase, ROOT);
  // The services run from their bundles, as the Dockerfile runs them: built from the sources as they are.
  await buildServices();
  const redisHz = arg("redis-hz");
  // Redis server settings are part of what is measured (hz decides how late delayed jobs fire), so
  // by default the bench runs its own redis-server exactly as production is told to run it.
  const privateRedis = arg("redis") === "local" ? undefined : await startPrivateRedis(redisHz ? Number(redisHz) : undefined);
  if (privateRedis) run.redisUrl = privateRedis.url;
  else await ensureRedis(run.redisUrl, ROOT);

  let interrupted = false;
  const onSignal = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write("\ninterrupted: cleaning up (Ctrl-C again to leave everything behind)\n");
    void cleanupRun(run, keep).finally(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const startedAt = new Date();
  const t0 = performance.now();
  const cpu0 = machineCpu();
  const psi0 = pressureTotals();
  const results: ScenarioResult[] = [];
  const errors: { scenario: string; error: string }[] = [];
  try {
    for (const name of only) {
      ctx.log(`== ${name}`);
      const before = pressureTotals();
      const machineBefore = machineCpu();
      const own = new OwnCpu(run.id);
      const s0 = performance.now();
      try {
        const r = await SCENARIOS[name]!(ctx);
        const after = pressureTotals();
        if (before && after) r.stalls = pressurePercent(before, after, performance.now() - s0);
        r.reliability = judge(foreignCpuPercent(machineBefore, machineCpu(), own.stop()), r.stalls, r.baselineNoise);
        results.push(r);
        const verdict = (pass: boolean) => (!r.reliability?.reliable ? "UNRELIABLE" : pass ? "pass " : "SHORT");
        for (const c of r.checks) ctx.log(`  ${verdict(c.pass)} ${c.label}: ${c.figure} ${c.unit} (target ${c.target})${c.note ? ` - ${c.note}` : ""}`);
        if (!r.reliability.reliable) ctx.log(`  unreliable: ${r.reliability.reasons.join("; ")}`);
        ctx.log(`  (${Math.round(r.wallMs / 1000)} s${r.stalls ? `; ${stallSummary(r.stalls)}` : ""})`);
      } catch (err) {
        const message = err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err);
        errors.push({ scenario: name, error: message });
        ctx.log(`  scenario ${name} failed: ${message}`);
      }
    }
  } finally {
    // Removing the run's files can take minutes on a busy disk (seen: 2.5 min with I/O stalled 88%
    // of the time): say what the wait is.
    const c0 = performance.now();
    ctx.log(keep ? "keeping the run's databases, Redis keys and files (--keep)" : "cleaning up the run's databases, Redis keys and files (--keep leaves them)");
    await cleanupRun(run, keep);
    if (!keep) ctx.log(`  cleaned up in ${Math.round((performance.now() - c0) / 100) / 10} s`);
    await privateRedis?.stop();
  }
  const cpu1 = machineCpu();
  const psi1 = pressureTotals();
  const wallMs = Math.round(performance.now() - t0);
  const report = {
    startedAt: startedAt.toISOString(),
    wallMs,
    runId: run.id,
    options: {
      only,
      quick,
      repeats,
      profile: [...ctx.profile],
      redis: privateRedis ? `private redis-server (${privateRedis.settings})` : "shared local Redis, as configured",
    },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? "",
      memoryGb: Math.round(os.totalmem() / 1e9),
      node: process.version,
      loadAvgAtEnd: os.loadavg().map((v) => Math.round(v * 100) / 100),
      // Share of all cores busy during the run, ours and everyone else's (the machine is shared).
      busyPercentDuringRun: Math.round(((cpu1.busy - cpu0.busy) / Math.max(1, cpu1.total - cpu0.total)) * 1000) / 10,
      // Share of the run in which tasks waited for a CPU or for I/O (Linux PSI), when the kernel has it.
      stalledDuringRun: psi0 && psi1 ? pressurePercent(psi0, psi1, wallMs) : undefined,
    },
    scenarios: results,
    errors,
  };
  mkdirSync(outDir, { recursive: true });
  const date = startedAt.toISOString().slice(0, 10);
  const variant = !privateRedis ? "-redis-local" : redisHz ? `-redis-hz${redisHz}` : "";
  const full = only.length === Object.keys(SCENARIOS).length && !quick && variant === "";
  const base = full ? date : `${date}-${quick ? "quick-" : ""}${only.join("-")}${variant}`;
  const svgName = `${base}.svg`;
  // Infinity (undelivered, failed) would become null in JSON: keep it readable.
  const json = JSON.stringify(report, (_k, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v), 2);
  writeFileSync(path.join(outDir, `${base}.json`), `${json}\n`);
  writeFileSync(path.join(outDir, svgName), renderSvg(results));
  writeFileSync(path.join(outDir, `${base}.md`), renderMarkdown(report, svgName));
  ctx.log(`\nwrote ${path.relative(ROOT, path.join(outDir, `${base}.{json,md,svg}`))} in ${Math.round(wallMs / 1000)} s`);
  if (existsSync(profDir)) writeFlameGraphs(profDir, ctx.log);
  const checks = results.flatMap((r) => r.checks);
  const judged = results.filter((r) => r.reliability?.reliable !== false).flatMap((r) => r.checks);
  const unjudged = checks.length - judged.length;
  ctx.log(
    `${judged.filter((c) => c.pass).length} targets pass, ${judged.filter((c) => !c.pass).length} short${unjudged ? `, ${unjudged} UNRELIABLE (machine not quiet: repeat on a quiet machine)` : ""}${errors.length ? `, ${errors.length} scenario(s) failed to run` : ""}`,
  );
  return errors.length > 0 ? 1 : 0;
}

/** A flame graph (SVG) and a short self-time summary next to every .cpuprofile of the run. */
function writeFlameGraphs(dir: string, log: (m: string) => void): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".cpuprofile")) continue;
    const file = path.join(entry.parentPath, entry.name);
    writeFileSync(file.replace(/\.cpuprofile$/, ".svg"), flameGraph(file, path.relative(ROOT, file)));
    const s = summarizeProfile(file, 8);
    log(`profile ${path.relative(ROOT, file)}: ${s.totalMs - s.idleMs} ms busy; by package: ${s.byPackage.map((p) => `${p.name} ${p.pct}%`).join(", ")}`);
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);

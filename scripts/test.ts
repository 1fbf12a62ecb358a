// The one test command: `pnpm test`. Runs the unit tier (`*.unit.test.ts`: no PostgreSQL, no Redis, in
// parallel), then the integration tier (everything else, against real PostgreSQL and Redis), then
// prints "N passed, N failed" as its last line. `pnpm test:unit` (`--unit`) runs the first tier alone;
// `pnpm test:topology` (`--topology`) runs the topology tier alone (test/topology: replicas, Redis
// Cluster and PgBouncer, dependency restarts, the chaos soak), in one shard, since its suites count what
// survives a fault within a fixed time and must not share the machine with other suites. Other
// arguments are Jest's test path filters, applied to every tier run.
//
// The integration tier runs as TEST_SHARDS shards at once (default: twice the cores plus one: most
// end-to-end suites spend much of their time waiting on timers and outages; on 2 cores 5 shards took
// 560 s where 3 took 747 s, the suite using ~490 s of CPU either way), each a Jest
// process of its own with its own database, Redis prefix and storage (test/support/global-setup.ts),
// its files one at a time, balanced by running time (test/support/sequencer.js).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { buildServices, inspectorBundlePath } from "./build-services";
import { ensurePostgres } from "./up/ensure-postgres";
import { ensureRedis } from "./up/ensure-redis";
import { runTestMain } from "./test-main";

const ROOT = path.resolve(__dirname, "..");
const DATA = path.join(ROOT, ".data");
const TIMINGS = path.join(DATA, "test-timings.json");

const ZJestResults = z.object({
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  numPendingTests: z.number(),
  numRuntimeErrorTestSuites: z.number(),
  success: z.boolean(),
  testResults: z.array(z.object({ name: z.string(), startTime: z.number(), endTime: z.number() })),
});

interface TierResult {
  passed: number;
  failed: number;
  skipped: number;
  ok: boolean;
  /** Seconds per test file, by path from the repository root. */
  timings: Record<string, number>;
}

/** Runs one Jest process and reads its results; a run that wrote none counts as one failure. */
function runJest(name: string, args: string[]): Promise<TierResult> {
  const out = path.join(DATA, `test-results-${name}.json`);
  rmSync(out, { force: true });
  // --forceExit: a suite that leaves a handle open (found 2026-11-26: one shard stayed alive after its
  // last suite, "Jest did not exit") must not hang CI; Jest still prints the warning, so it stays visible.
  const jest = spawn(path.join(ROOT, "node_modules/.bin/jest"), ["--passWithNoTests", "--forceExit", "--json", `--outputFile=${out}`, ...args], {
    cwd: ROOT,
    stdio: "inherit",
  });
  return new Promise((resolve) => {
    jest.once("exit", (status) => {
      if (!existsSync(out)) return resolve({ passed: 0, failed: 1, skipped: 0, ok: false, timings: {} });
      const r = ZJestResults.parse(JSON.parse(readFileSync(out, "utf8")));
      // A suite that crashed before running its tests counts as a failure too.
      const failed = r.numFailedTests + r.numRuntimeErrorTestSuites;
      const timings: Record<string, number> = {};
      for (const t of r.testResults) {
        timings[path.relative(ROOT, t.name).split(path.sep).join("/")] = Math.round((t.endTime - t.startTime) / 100) / 10;
      }
      resolve({ passed: r.numPassedTests, failed, skipped: r.numPendingTests, ok: r.success && failed === 0 && status === 0, timings });
    });
  });
}

function sum(results: TierResult[]): TierResult {
  return results.reduce(
    (a, r) => ({
      passed: a.passed + r.passed,
      failed: a.failed + r.failed,
      skipped: a.skipped + r.skipped,
      ok: a.ok && r.ok,
      timings: { ...a.timings, ...r.timings },
    }),
    { passed: 0, failed: 0, skipped: 0, ok: true, timings: {} },
  );
}

/** Keeps each file's last running time so the next run's shards are balanced on this machine. */
function recordTimings(timings: Record<string, number>): void {
  let known: Record<string, number> = {};
  try {
    known = z.record(z.string(), z.number()).parse(JSON.parse(readFileSync(TIMINGS, "utf8")));
  } catch {
    // first run, or a damaged file: start afresh
  }
  writeFileSync(TIMINGS, `${JSON.stringify({ ...known, ...timings }, null, 2)}\n`);
}

async function main(): Promise<number> {
  const unitOnly = process.argv.includes("--unit");
  const topology = process.argv.includes("--topology");
  const filters = process.argv.slice(2).filter((a) => a !== "--unit" && a !== "--topology");
  mkdirSync(DATA, { recursive: true });
  const tiers: TierResult[] = [];
  // The suites start services from their bundles: built once here, for every tier and shard. The unit
  // tier's PdfInspector suites fork the inspector's bundle too (one CommonJS file: 270-390 ms of CPU a
  // start on the bench machine against 1.0-1.2 s for the TypeScript child under tsx; they start some
  // thirty processes).
  await buildServices();
  process.env.ESIGN_BUNDLES_BUILT = "1";
  process.env.ESIGN_PDF_INSPECTOR_BUNDLE = inspectorBundlePath();
  // The unit tier needs neither PostgreSQL nor Redis, and runs in parallel. First and alone: beside
  // the integration shards its type check starved them (a CI run went from 325 s to over 400 s).
  // Three workers on two cores: the three PdfInspector suites mostly wait for real time-outs.
  if (!topology) tiers.push(await runJest("unit", ["--selectProjects", "unit", "--maxWorkers=3", ...filters]));
  if (!unitOnly) {
    // Same as `pnpm start`: use the running servers, or start local ones when they are absent.
    await ensurePostgres(process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres", ROOT);
    await ensureRedis(process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379", ROOT);
    const shards = topology
      ? 1
      : z.coerce
          .number()
          .int()
          .min(1)
          .default(2 * os.availableParallelism() + 1)
          .parse(process.env.TEST_SHARDS || undefined);
    const project = topology ? "topology" : "integration";
    // Within a shard one file at a time: end-to-end suites start real service processes, and their
    // timing checks (connect limits, ladder spacing) must not compete with many other suites.
    const runs = Array.from({ length: shards }, (_, i) =>
      runJest(`${project}-${i + 1}`, ["--selectProjects", project, "--runInBand", `--shard=${i + 1}/${shards}`, ...filters]),
    );
    tiers.push(sum(await Promise.all(runs)));
    // Then the suites that judge real time closely, alone (jest.config.js "alone").
    if (!topology) tiers.push(await runJest("alone", ["--selectProjects", "alone", "--runInBand", ...filters]));
  }
  const total = sum(tiers);
  recordTimings(total.timings);
  const skipped = total.skipped > 0 ? `, ${total.skipped} skipped` : "";
  process.stdout.write(`${total.passed} passed, ${total.failed} failed${skipped}\n`);
  return total.ok ? 0 : 1;
}

runTestMain(main);

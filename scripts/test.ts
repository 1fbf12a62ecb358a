// The one test command: `pnpm test`. Runs the unit tier (`*.unit.test.ts`: no PostgreSQL, no Redis, in
// parallel), then the integration tier (everything else, against real PostgreSQL and Redis, each run
// in its own database and Redis prefix, see test/support/global-setup.ts), then prints
// "N passed, N failed" as its last line. `pnpm test:unit` (`--unit`) runs the first tier alone; other
// arguments are Jest's test path filters, applied to both tiers.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ensurePostgres } from "./up/ensure-postgres";
import { ensureRedis } from "./up/ensure-redis";

const ROOT = path.resolve(__dirname, "..");
const RESULTS = path.join(ROOT, ".data", "test-results.json");

const ZJestResults = z.object({
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  numPendingTests: z.number(),
  numRuntimeErrorTestSuites: z.number(),
  success: z.boolean(),
});

interface TierResult {
  passed: number;
  failed: number;
  skipped: number;
  ok: boolean;
}

/** Runs one tier (a Jest project) and reads its results; a run that wrote none counts as one failure. */
function runTier(project: "unit" | "integration", extra: string[], filters: string[]): TierResult {
  const out = RESULTS.replace(/\.json$/, `-${project}.json`);
  rmSync(out, { force: true });
  const args = ["--selectProjects", project, "--passWithNoTests", "--json", `--outputFile=${out}`, ...extra, ...filters];
  const jest = spawnSync(path.join(ROOT, "node_modules/.bin/jest"), args, { cwd: ROOT, stdio: "inherit" });
  if (!existsSync(out)) return { passed: 0, failed: 1, skipped: 0, ok: false };
  const r = ZJestResults.parse(JSON.parse(readFileSync(out, "utf8")));
  // A suite that crashed before running its tests counts as a failure too.
  const failed = r.numFailedTests + r.numRuntimeErrorTestSuites;
  return { passed: r.numPassedTests, failed, skipped: r.numPendingTests, ok: r.success && failed === 0 && jest.status === 0 };
}

async function main(): Promise<number> {
  const unitOnly = process.argv.includes("--unit");
  const filters = process.argv.slice(2).filter((a) => a !== "--unit");
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  // The unit tier needs neither PostgreSQL nor Redis, and runs in parallel.
  const tiers: TierResult[] = [runTier("unit", ["--maxWorkers=2"], filters)];
  if (!unitOnly) {
    // Same as `pnpm start`: use the running servers, or start local ones when they are absent.
    await ensurePostgres(process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres", ROOT);
    await ensureRedis(process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379", ROOT);
    // One suite at a time: end-to-end suites start real service processes, and timing checks (200 ms
    // connect limit, ladder spacing) must not compete for the two cores with a parallel suite.
    tiers.push(runTier("integration", ["--runInBand"], filters));
  }
  const passed = tiers.reduce((n, t) => n + t.passed, 0);
  const failed = tiers.reduce((n, t) => n + t.failed, 0);
  const skippedCount = tiers.reduce((n, t) => n + t.skipped, 0);
  const skipped = skippedCount > 0 ? `, ${skippedCount} skipped` : "";
  process.stdout.write(`${passed} passed, ${failed} failed${skipped}\n`);
  return failed > 0 || tiers.some((t) => !t.ok) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.stdout.write("0 passed, 1 failed\n");
    process.exit(1);
  },
);

// The one test command: `pnpm test`. Runs every suite (unit, real-service end-to-end, static checks)
// against real PostgreSQL and Redis, each run in its own database and Redis prefix (see
// test/support/global-setup.ts), then prints "N passed, N failed" as its last line.
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

async function main(): Promise<number> {
  // Same as `pnpm start`: use the running servers, or start local ones when they are absent.
  await ensurePostgres(process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres", ROOT);
  await ensureRedis(process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379", ROOT);
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  rmSync(RESULTS, { force: true });
  // One suite at a time: end-to-end suites start real service processes, and timing checks (200 ms
  // connect limit, ladder spacing) must not compete for the two cores with a parallel suite.
  const args = ["--runInBand", "--json", `--outputFile=${RESULTS}`, ...process.argv.slice(2)];
  const jest = spawnSync(path.join(ROOT, "node_modules/.bin/jest"), args, { cwd: ROOT, stdio: "inherit" });
  if (!existsSync(RESULTS)) {
    process.stdout.write("0 passed, 1 failed\n");
    return jest.status ?? 1;
  }
  const r = ZJestResults.parse(JSON.parse(readFileSync(RESULTS, "utf8")));
  // A suite that crashed before running its tests counts as a failure too.
  const failed = r.numFailedTests + r.numRuntimeErrorTestSuites;
  const skipped = r.numPendingTests > 0 ? `, ${r.numPendingTests} skipped` : "";
  process.stdout.write(`${r.numPassedTests} passed, ${failed} failed${skipped}\n`);
  return failed > 0 || !r.success ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.stdout.write("0 passed, 1 failed\n");
    process.exit(1);
  },
);

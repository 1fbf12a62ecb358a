// `pnpm test:deploy`: the platform team's path, run for real with podman. Makes the base image when
// absent (scripts/deploy/base-image.ts: Debian minbase by mmdebstrap + Node from npm), builds the
// images (docker/Dockerfile), then runs the deploy suites (test/deploy: the image's files, the compose
// stack and deploy/k8s through `podman kube play` with a smoke test each, a rolling replacement under
// traffic) one file at a time, each tearing down what it started. Last line: "N passed, N failed".
// Figures (image sizes, times) go to .data/deploy/figures.json. Needs podman, runc and mmdebstrap
// (.ci/run installs them) and the PostgreSQL and Redis `pnpm test` uses.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ensureBaseImage } from "./deploy/base-image";
import { buildImages } from "./deploy/images";
import { DEPLOY_DATA, ROOT, run, writeContainersConf } from "./deploy/podman";
import { ensurePostgres } from "./up/ensure-postgres";
import { ensureRedis } from "./up/ensure-redis";
import { runTestMain } from "./test-main";

export const FIGURES = path.join(DEPLOY_DATA, "figures.json");
const TAG = process.env.ESIGN_DEPLOY_TAG ?? "test";

const log = (line: string) => process.stdout.write(`[test:deploy] ${line}\n`);

async function requireTools(): Promise<void> {
  const missing: string[] = [];
  for (const tool of ["podman", "runc", "mmdebstrap", "openssl", "pdfsig"]) {
    if ((await run("sh", ["-c", `command -v ${tool}`], { allowFailure: true })).code !== 0) missing.push(tool);
  }
  if (missing.length > 0) throw new Error(`missing: ${missing.join(", ")} (apt-get install podman runc mmdebstrap openssl poppler-utils; .ci/run does)`);
}

const ZResults = z.object({ numPassedTests: z.number(), numFailedTests: z.number(), numRuntimeErrorTestSuites: z.number(), success: z.boolean() });

function runJest(filters: string[]): Promise<{ passed: number; failed: number; ok: boolean }> {
  const out = path.join(ROOT, ".data", "test-results-deploy.json");
  rmSync(out, { force: true });
  // Whole stacks start and stop within a test: minutes, not the other tiers' 60 s.
  const jest = spawn(
    path.join(ROOT, "node_modules/.bin/jest"),
    ["--selectProjects", "deploy", "--runInBand", "--testTimeout=300000", "--json", `--outputFile=${out}`, ...filters],
    {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, ESIGN_DEPLOY_TAG: TAG },
    },
  );
  return new Promise((resolve) => {
    jest.once("exit", (status) => {
      if (!existsSync(out)) return resolve({ passed: 0, failed: 1, ok: false });
      const r = ZResults.parse(JSON.parse(readFileSync(out, "utf8")));
      const failed = r.numFailedTests + r.numRuntimeErrorTestSuites;
      resolve({ passed: r.numPassedTests, failed, ok: r.success && failed === 0 && status === 0 });
    });
  });
}

async function main(): Promise<number> {
  const started = Date.now();
  mkdirSync(DEPLOY_DATA, { recursive: true });
  writeContainersConf();
  await requireTools();
  await ensurePostgres(process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres", ROOT);
  await ensureRedis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", ROOT);
  const baseStarted = Date.now();
  const base = await ensureBaseImage(log);
  const baseSeconds = (Date.now() - baseStarted) / 1000;
  log(`base image ${base} (${baseSeconds.toFixed(1)} s)`);
  const buildStarted = Date.now();
  const images = await buildImages(base, TAG, log);
  const buildSeconds = (Date.now() - buildStarted) / 1000;
  writeFileSync(FIGURES, `${JSON.stringify({ baseImage: base, baseSeconds, buildSeconds, images, suites: {} }, null, 2)}\n`);
  for (const i of images) log(`${i.ref}: ${(i.bytes / 1e6).toFixed(0)} MB`);
  const result = await runJest(process.argv.slice(2));
  const figures = JSON.parse(readFileSync(FIGURES, "utf8")) as Record<string, unknown>;
  figures.totalSeconds = (Date.now() - started) / 1000;
  writeFileSync(FIGURES, `${JSON.stringify(figures, null, 2)}\n`);
  log(
    `done in ${(figures.totalSeconds as number).toFixed(0)} s (base image ${baseSeconds.toFixed(0)} s, images ${buildSeconds.toFixed(0)} s); figures in ${path.relative(ROOT, FIGURES)}`,
  );
  process.stdout.write(`${result.passed} passed, ${result.failed} failed\n`);
  return result.ok ? 0 : 1;
}

runTestMain(main);

// Every test, one command: `pnpm test:all` runs `pnpm test` (the unit and integration tiers), then the
// platform tests: `pnpm test:topology` (replicas, Redis Cluster and PgBouncer, restarts, the chaos soak,
// alone on the machine) and `pnpm test:deploy` (the images and their stacks under podman), each as its
// own process with its output passed through, and prints their sum as its last line: "N passed, N
// failed". `.ci/run` runs exactly this. A command that printed no count (it crashed before its runner)
// counts as one failure.
import { spawn } from "node:child_process";
import { runTestMain } from "./test-main";

const COUNT = /^(\d+) passed, (\d+) failed/;

interface Outcome {
  passed: number;
  failed: number;
  seconds: number;
}

function run(script: string): Promise<Outcome> {
  const started = Date.now();
  const child = spawn("pnpm", ["--silent", script], { stdio: ["ignore", "pipe", "inherit"] });
  let last: RegExpExecArray | null = null;
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) last = COUNT.exec(line) ?? last;
  });
  return new Promise((resolve) => {
    child.once("close", (status) => {
      last = COUNT.exec(pending) ?? last;
      const seconds = Math.round((Date.now() - started) / 1000);
      const counted: RegExpExecArray | null = last;
      if (!counted) return resolve({ passed: 0, failed: 1, seconds });
      const passed = Number(counted[1]);
      const failed = Number(counted[2]);
      resolve({ passed, failed: failed === 0 && status !== 0 ? 1 : failed, seconds });
    });
  });
}

async function main(): Promise<number> {
  const suite = await run("test");
  const topology = await run("test:topology");
  const deploy = await run("test:deploy");
  process.stdout.write(
    `pnpm test: ${suite.seconds} s; platform: ${topology.seconds + deploy.seconds} s (pnpm test:topology ${topology.seconds} s, pnpm test:deploy ${deploy.seconds} s)\n`,
  );
  const passed = suite.passed + topology.passed + deploy.passed;
  const failed = suite.failed + topology.failed + deploy.failed;
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

runTestMain(main);

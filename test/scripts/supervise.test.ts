import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { supervise, type RestartPolicy } from "../../scripts/up/supervise";
import type { ServiceSpec } from "../../scripts/up/services";

const REPO_ROOT = path.resolve(__dirname, "../..");
const dir = mkdtempSync(path.join(os.tmpdir(), "supervise-"));
// A run counts from the spawn, so it includes Node starting: 0.1-0.3 s on a quiet machine,
// over 1 s beside the soak suite. Each test keeps its runs far from the quick-exit threshold: a
// service that runs a while (2 s after starting) against 1 s, a crash at start against 10 s.
const policy: RestartPolicy = { quickExitMs: 1000, maxQuickExits: 3, firstDelayMs: 50, maxDelayMs: 200 };
const crashLoopPolicy: RestartPolicy = { ...policy, quickExitMs: 10_000 };

function spec(name: string, env: Record<string, string>): ServiceSpec {
  return {
    name,
    entry: "test/support/fixtures/flaky-service.cjs",
    env: { FLAKY_LOG: path.join(dir, `${name}.log`), ...env },
    readyUrl: "http://127.0.0.1:1/readyz",
  };
}
const starts = (name: string) => {
  const file = path.join(dir, `${name}.log`);
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").length : 0;
};
const until = async (check: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("not reached in time");
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("pnpm start's supervisor", () => {
  it("restarts a service that dies after running a while, leaves the others alone, and stops all on request", async () => {
    const sup = supervise([spec("steady", {}), spec("crashy", { FLAKY_CRASH_AFTER_MS: "2000" })], REPO_ROOT, policy);
    await until(() => starts("crashy") >= 3);
    expect(starts("steady")).toBe(1);
    expect(sup.stopping.aborted).toBe(false);
    sup.stop();
    expect(await sup.done).toBe(0);
  }, 60_000);

  it("stops everything with a non-zero code when a service crashes right after every start (a crash loop)", async () => {
    const sup = supervise([spec("fine", {}), spec("broken", { FLAKY_CRASH_AFTER_MS: "0" })], REPO_ROOT, crashLoopPolicy);
    expect(await sup.done).toBe(1);
    expect(starts("broken")).toBe(3);
    expect(sup.stopping.aborted).toBe(true);
  }, 60_000);
});

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { REDIS_SERVER_SETTINGS } from "../../scripts/up/ensure-redis";
import { freePort } from "../../test/support/ports";

/**
 * A redis-server of the bench's own, configured as production runs it (REDIS_SERVER_SETTINGS: AOF,
 * noeviction, hz 100), with its files in a temporary folder. The shared development Redis is left
 * with its own settings; `hz` overrides the production value for experiments (`--redis-hz 10`).
 */
export async function startPrivateRedis(hz?: number): Promise<{ url: string; settings: string; stop(): Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "esign-bench-redis-"));
  const settings = [...REDIS_SERVER_SETTINGS, "--save", ""];
  if (hz !== undefined) settings.splice(settings.indexOf("--hz"), 2, "--hz", String(hz));
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, ...settings], { stdio: "ignore" });
  let spawnError: Error | undefined;
  child.once("error", (err) => (spawnError = err));
  child.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on("error", () => undefined); // refused until the server listens
    try {
      await probe.connect();
      if ((await probe.ping()) === "PONG") break;
    } catch {
      if (spawnError) throw new Error(`could not run redis-server (${spawnError.message}); install it, or pass --redis local`);
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      probe.disconnect();
    }
  }
  return {
    url,
    settings: settings.join(" "),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { freePort } from "./ports";

/**
 * A redis-server of the test's own, for tests that stop and restart Redis (the shared development
 * Redis runs without persistence and belongs to everyone). Persistence is the production setting
 * BullMQ needs: append-only file, fsync on every write. Restarts reuse the port and the data folder.
 */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  isRunning(): boolean;
  /** SHUTDOWN (Redis writes its data and exits), then waits for the process to end. */
  shutdown(): Promise<void>;
  /** Starts again on the same port and data folder. */
  restart(): Promise<void>;
  /** Shuts down if running and removes the data folder. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;

// ioredis arms a 2 s timer when disconnecting a socket that is already closed (it waits for a
// 'close' that never comes), which keeps Jest alive after the tests: skip it for ended clients.
function disconnect(client: Redis): void {
  if (client.status !== "end") client.disconnect();
}

async function waitForPing(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode} during start`);
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
    // Refused while the server starts: connect() rejects with it; without a listener ioredis prints it too.
    client.on("error", () => undefined);
    try {
      await client.connect();
      if ((await client.ping()) === "PONG") return;
    } catch {
      // not up yet
    } finally {
      disconnect(client);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server on ${url} not answering after ${START_TIMEOUT_MS} ms`);
}

/** What every redis-server of the tests runs with: loopback, AOF, no RDB snapshots, noeviction (as BullMQ needs). */
export function redisServerArgs(port: number, dir: string, appendfsync: "always" | "everysec" = "always"): string[] {
  return [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--appendonly",
    "yes",
    "--appendfsync",
    appendfsync,
    "--save",
    "",
    "--maxmemory-policy",
    "noeviction",
  ];
}

export interface RedisServerOptions {
  /** `always` (default: nothing acknowledged is lost) or `everysec` (the common production setting). */
  appendfsync?: "always" | "everysec";
}

export async function startRedisServer(opts: RedisServerOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "esign-redis-"));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let output = "";

  const launch = async () => {
    child = spawn("redis-server", redisServerArgs(port, dir, opts.appendfsync ?? "always"), { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    child.stderr?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    try {
      await waitForPing(url, child);
    } catch (err) {
      child.kill("SIGKILL");
      throw new Error(`${(err as Error).message}\n${output}`);
    }
  };

  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const shutdown = async () => {
    const proc = child;
    if (!proc || !running()) return;
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    const client = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    // The server closes the connection instead of answering SHUTDOWN: that is the success case.
    await client.call("SHUTDOWN").catch((err: unknown) => {
      if (!/closed|ended/i.test(String(err))) throw err;
    });
    const killer = setTimeout(() => proc.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(killer);
    disconnect(client);
  };

  await launch();
  return {
    port,
    url,
    dir,
    isRunning: running,
    shutdown,
    async restart() {
      if (running()) throw new Error("redis-server is still running");
      await launch();
    },
    async stop() {
      await shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

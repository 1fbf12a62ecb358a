import { mkdirSync } from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { bare, canConnect, isLocalHost, portOf } from "./network";
import { ok, step } from "./output";
import { findExecutable, indent, runCommand } from "./run-command";
import { UpError } from "./up-error";
import { probeSafely, waitUntil, type ProbeResult } from "./wait";

const WAIT_MS = 30_000;
const LOGIN_REFUSED = /NOAUTH|WRONGPASS|invalid password|invalid username/i;

interface RedisTarget {
  url: string;
  host: string;
  port: number;
  password: string;
  label: string;
}

function parseTarget(redisUrl: string): RedisTarget {
  const url = new URL(redisUrl);
  const port = portOf(url, 6379);
  return { url: redisUrl, host: url.hostname, port, password: decodeURIComponent(url.password), label: `Redis at ${url.hostname}:${port}` };
}

/** One PING on a throw-away connection that never retries, so a probe answers at once. */
async function pingRedis(target: RedisTarget): Promise<ProbeResult> {
  const redis = new Redis(target.url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // Failures arrive through the rejected connect()/ping() below; without a listener ioredis would
  // also print them as "Unhandled error event".
  redis.on("error", () => undefined);
  try {
    return await probeSafely(async () => {
      await redis.connect();
      await redis.ping();
    });
  } finally {
    redis.disconnect();
  }
}

function installHint(target: RedisTarget): string {
  return [
    "Install Redis and start it, then run `pnpm start` again:",
    "  sudo apt-get install -y redis-server",
    `  redis-server --daemonize yes --port ${target.port} --bind 127.0.0.1 ${REDIS_SERVER_SETTINGS.join(" ")}`,
    "(macOS: brew install redis && brew services start redis)",
  ].join("\n");
}

/**
 * The server settings this system wants of Redis, also in docker/compose.yaml and used by the bench:
 * AOF keeps queued jobs across restarts; noeviction because the services refuse any other policy
 * (evicted keys are lost jobs); hz 100 because BullMQ's delayed jobs (the webhook retry ladder) wait
 * on blocking commands whose timeouts Redis only checks hz times a second: 100 ms late at the
 * default 10, ~10 ms at 100 (bench/README.md, "Retry timing").
 */
export const REDIS_SERVER_SETTINGS: readonly string[] = ["--appendonly", "yes", "--maxmemory-policy", "noeviction", "--hz", "100"];

/** Starts a private Redis under .data/redis with REDIS_SERVER_SETTINGS. */
async function startRedis(target: RedisTarget, repoRoot: string): Promise<void> {
  const server = findExecutable("redis-server", ["/usr/sbin", "/usr/local/bin", "/opt/homebrew/bin"]);
  if (!server) throw new UpError(`${target.label} is not running and redis-server is not installed.`, installHint(target));
  const dir = path.join(repoRoot, ".data", "redis");
  mkdirSync(dir, { recursive: true });
  const args = ["--daemonize", "yes", "--port", String(target.port), "--bind", "127.0.0.1", "--dir", dir, ...REDIS_SERVER_SETTINGS];
  args.push("--logfile", path.join(dir, "redis.log"), "--pidfile", path.join(dir, "redis.pid"));
  if (target.password) args.push("--requirepass", target.password);
  step(`starting ${server} ${args.filter((a) => a !== target.password).join(" ")}`);
  const result = await runCommand(server, args);
  if (result.code !== 0) {
    throw new UpError(`redis-server failed to start (exit ${String(result.code)}):\n${indent(result.output)}`, installHint(target));
  }
}

/** Makes sure Redis answers PING, starting a local one when nothing listens on a local URL. */
export async function ensureRedis(redisUrl: string, repoRoot: string): Promise<void> {
  const target = parseTarget(redisUrl);
  step(`checking ${target.label}`);
  let startedHere = false;
  if (!(await canConnect(target.host, target.port))) {
    if (!isLocalHost(target.host)) {
      throw new UpError(
        `${target.label} does not answer, and it is not on this machine, so up cannot start it.`,
        "Start that Redis, or point REDIS_URL at a reachable one.",
      );
    }
    await startRedis(target, repoRoot);
    startedHere = true;
  }
  const result = await waitUntil(target.label, () => pingRedis(target), { timeoutMs: WAIT_MS, permanent: LOGIN_REFUSED });
  if (!result.ready) {
    const hint = LOGIN_REFUSED.test(result.reason)
      ? "Check the user and password in REDIS_URL (redis://:PASSWORD@host:port)."
      : startedHere
        ? `See ${path.join(repoRoot, ".data/redis/redis.log")}.`
        : isLocalHost(target.host)
          ? installHint(target)
          : "Check that this Redis is running and reachable from here, or point REDIS_URL at another one.";
    throw new UpError(`${target.label} did not answer PING: ${result.reason}`, hint);
  }
  ok(`${target.label} answers PING`);
  if (startedHere) step(`started by up; stop it with: redis-cli -h ${bare(target.host)} -p ${target.port} shutdown`);
}

import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { applyMigrations, createPrisma, dropDatabase, ensureDatabase, type Db } from "@esign/db";
import { createDevelopmentSealP12 } from "@esign/seal";

/*
 * One bench run owns: databases named esign_bench_<run>_<scenario> (fresh, migrated, dropped at the
 * end), Redis keys under esign-bench-<run>:<scenario>: (deleted at the end) and a temporary folder
 * for stored files and mail. Scenarios get a world each, so one scenario's leftovers (pending jobs,
 * sweepers) can never leak into the next one's figures.
 */

export interface RunSecrets {
  JWT_SECRET: string;
  ENCRYPTION_KEY: string;
  METRICS_TOKEN: string;
  SEAL_P12_PATH: string;
  SEAL_P12_PASSWORD: string;
}

export interface BenchRun {
  id: string;
  dir: string;
  postgresBase: string;
  redisUrl: string;
  secrets: RunSecrets;
  worlds: World[];
}

export interface World {
  name: string;
  databaseUrl: string;
  queuePrefix: string;
  dir: string;
  db: Db;
  /** Production environment for the services of this world. */
  env(extra?: Record<string, string>): Record<string, string>;
  customer(): Promise<CustomerCredentials>;
}

export function newRun(): BenchRun {
  const id = `${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
  const dir = path.join(os.tmpdir(), `esign-bench-${id}`);
  mkdirSync(dir, { recursive: true });
  return {
    id,
    dir,
    postgresBase: process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
    redisUrl: process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    // Fresh production secrets per run: nothing here is a development default.
    secrets: {
      JWT_SECRET: randomBytes(36).toString("base64url"),
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      // Production serves /metrics only to scrapers that send it.
      METRICS_TOKEN: randomBytes(24).toString("base64url"),
      // Production requires a seal: the run's own P12 (a fresh local CA), written by ensureRunSeal.
      SEAL_P12_PATH: path.join(dir, "seal.p12"),
      SEAL_P12_PASSWORD: randomBytes(16).toString("hex"),
    },
    worlds: [],
  };
}

/** The run's seal P12, made once (two RSA-3072 key pairs take a second or two). */
async function ensureRunSeal(run: BenchRun): Promise<void> {
  if (existsSync(run.secrets.SEAL_P12_PATH)) return;
  writeFileSync(run.secrets.SEAL_P12_PATH, await createDevelopmentSealP12(run.secrets.SEAL_P12_PASSWORD, { organization: "E-Sign bench" }), { mode: 0o600 });
}

export async function createWorld(run: BenchRun, name: string): Promise<World> {
  await ensureRunSeal(run);
  const url = new URL(run.postgresBase);
  url.pathname = `/esign_bench_${run.id}_${name.replace(/[^a-z0-9]/gi, "_")}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  await applyMigrations(databaseUrl);
  const queuePrefix = `esign-bench-${run.id}:${name}`;
  const dir = path.join(run.dir, name);
  mkdirSync(dir, { recursive: true });
  const db = createPrisma(databaseUrl, 8);
  const world: World = {
    name,
    databaseUrl,
    queuePrefix,
    dir,
    db,
    env: (extra = {}) => ({
      NODE_ENV: "production",
      ...run.secrets,
      DATABASE_URL: databaseUrl,
      REDIS_URL: run.redisUrl,
      QUEUE_PREFIX: queuePrefix,
      HOST: "127.0.0.1",
      STORAGE_DIR: path.join(dir, "files"),
      MAIL_OUTBOX_DIR: path.join(dir, "outbox"),
      EBOKS_SIMULATOR_DIR: path.join(dir, "eboks"),
      LOG_FORMAT: "json",
      LOG_LEVEL: "info",
      // The bench measures capacity from one customer and one address: the abuse limits would cap it.
      RATE_LIMIT_SCALE: "1000",
      ...extra,
    }),
    customer: () => createCustomer(db, { name: `Bench customer ${randomBytes(3).toString("hex")}` }, run.secrets.ENCRYPTION_KEY),
  };
  run.worlds.push(world);
  return world;
}

/** Deletes every key under a prefix (SCAN, never KEYS: the Redis is shared). */
export async function deletePrefix(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  let cursor = "0";
  let deleted = 0;
  try {
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** Drops the run's databases, Redis keys and files. Safe to call twice. */
export async function cleanupRun(run: BenchRun, keep = false): Promise<void> {
  for (const w of run.worlds.splice(0)) {
    await w.db.$disconnect().catch(() => undefined);
    if (keep) continue;
    await dropDatabase(w.databaseUrl).catch((err: unknown) => process.stderr.write(`drop ${w.databaseUrl}: ${String(err)}\n`));
  }
  if (keep) return;
  await deletePrefix(run.redisUrl, `esign-bench-${run.id}`).catch((err: unknown) => process.stderr.write(`redis cleanup: ${String(err)}\n`));
  rmSync(run.dir, { recursive: true, force: true });
}

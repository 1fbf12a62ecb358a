import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyMigrations, ensureDatabase } from "@esign/db";
import { TEST_ENCRYPTION_KEY } from "./api";
import { ensureDevelopmentSeal } from "@esign/seal";

/**
 * One isolated world per test run: a fresh PostgreSQL database, a Redis key prefix and a storage
 * folder of its own. Workers and spawned services inherit these through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const run = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const pgBase = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const url = new URL(pgBase);
  url.pathname = `/esign_test_${run}`;
  process.env.DATABASE_URL = url.toString();
  process.env.QUEUE_PREFIX = `esign-test-${run}`;
  process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const dir = mkdtempSync(path.join(os.tmpdir(), `esign-test-${run}-`));
  process.env.STORAGE_DIR = path.join(dir, "files");
  process.env.MAIL_OUTBOX_DIR = path.join(dir, "outbox");
  process.env.EBOKS_SIMULATOR_DIR = path.join(dir, "eboks");
  process.env.ESIGN_TEST_DIR = dir;
  // The run's development seal, made once here so parallel workers never race to create their own.
  process.env.SEAL_DEVELOPMENT_DIR = path.join(dir, "seal");
  await ensureDevelopmentSeal(process.env.SEAL_DEVELOPMENT_DIR);
  process.env.NODE_ENV = "test";
  // The key the tests encrypt with (support/api.ts); production-mode services of a test need a real one too.
  process.env.ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
  // Every suite's services share one Redis prefix, so the per-address limits (all tests come from
  // 127.0.0.1) would add up across files; the abuse-limit suite sets RATE_LIMIT_SCALE=1 itself.
  process.env.RATE_LIMIT_SCALE = process.env.RATE_LIMIT_SCALE ?? "1000";
  process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "warn";
  await ensureDatabase(process.env.DATABASE_URL);
  await applyMigrations(process.env.DATABASE_URL);
}

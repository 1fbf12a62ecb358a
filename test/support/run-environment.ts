import { mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureDevelopmentSeal } from "@esign/seal";
import { TEST_ENCRYPTION_KEY } from "./api";

/**
 * The environment of one isolated test run - its database URL, Redis key prefix, storage, mail and
 * e-Boks folders, its development seal - set on process.env, which workers and spawned services
 * inherit. Used by Jest's global setup (one per shard) and by `pnpm soak` outside Jest.
 */
export async function setRunEnvironment(name: string, databaseUrl: string): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: name,
    STORAGE_DIR: path.join(dir, "files"),
    MAIL_OUTBOX_DIR: path.join(dir, "outbox"),
    EBOKS_SIMULATOR_DIR: path.join(dir, "eboks"),
    ESIGN_TEST_DIR: dir,
    // The run's development seal, made once here so parallel workers never race to create their own.
    SEAL_DEVELOPMENT_DIR: path.join(dir, "seal"),
    NODE_ENV: "test",
    // The key the tests encrypt with (support/api.ts); production-mode services of a test need a real one too.
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    // Every suite's services share one Redis prefix, so the per-address limits (all tests come from
    // 127.0.0.1) would add up across files; the abuse-limit suite sets RATE_LIMIT_SCALE=1 itself.
    RATE_LIMIT_SCALE: process.env.RATE_LIMIT_SCALE ?? "1000",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  });
  mkdirSync(process.env.STORAGE_DIR!, { recursive: true });
  await ensureDevelopmentSeal(process.env.SEAL_DEVELOPMENT_DIR!);
}

import { randomBytes } from "node:crypto";
import { applyMigrations, ensureDatabase } from "@esign/db";
import { buildServices, inspectorBundlePath } from "../../scripts/build-services";
import { setRunEnvironment } from "./run-environment";

/**
 * One isolated world per test run: a fresh PostgreSQL database, a Redis key prefix and a storage
 * folder of its own. Workers and spawned services inherit these through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const run = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const pgBase = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const url = new URL(pgBase);
  url.pathname = `/esign_test_${run}`;
  process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  await setRunEnvironment(`esign-test-${run}`, url.toString());
  await ensureDatabase(process.env.DATABASE_URL!);
  await applyMigrations(process.env.DATABASE_URL!);
  // Services start from their bundles (test/support/services.ts), built from the sources as they are
  // now. `pnpm test` builds them once before its shards start (ESIGN_BUNDLES_BUILT): one shard
  // rewriting a bundle while another starts it would start a torn file.
  if (process.env.ESIGN_BUNDLES_BUILT !== "1") await buildServices();
  // A PdfInspector made in a test's own process (the in-process gateways) forks the bundled child too,
  // as the bundled gateway does, instead of the TypeScript one through tsx: about 1 s less CPU a fork.
  // The unit tier, which builds no bundle, keeps testing the TypeScript child.
  process.env.ESIGN_PDF_INSPECTOR_BUNDLE = inspectorBundlePath();
}

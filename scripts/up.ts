// One command from a fresh clone to a running system: `pnpm install && pnpm start` (or scripts/up.sh).
// Checks (or starts) PostgreSQL and Redis, migrates, ensures a demo customer, then runs the four
// services (from their bundles, built first: scripts/build-services.ts) in the foreground until Ctrl-C.
// Each step lives in scripts/up/.
import path from "node:path";
import { ConfigError, loadConfig, type AppConfig } from "@esign/config";
import { applyMigrations, ensureDatabase } from "@esign/db";
import type { CustomerCredentials } from "@esign/accounts";
import { buildServices } from "./build-services";
import { ensureDemoCustomer } from "./up/demo-customer";
import { ensurePostgres } from "./up/ensure-postgres";
import { ensureRedis } from "./up/ensure-redis";
import { fail, ok, paint, step } from "./up/output";
import { waitForServices } from "./up/readiness";
import { indent } from "./up/run-command";
import { serviceSpecs } from "./up/services";
import { supervise } from "./up/supervise";
import { UpError } from "./up/up-error";

const REPO_ROOT = path.resolve(__dirname, "..");
const CREDENTIALS_FILE = path.join(REPO_ROOT, ".data", "demo-credentials.json");

async function migrate(databaseUrl: string): Promise<void> {
  if (await ensureDatabase(databaseUrl)) step(`created database ${new URL(databaseUrl).pathname.slice(1)}`);
  const applied = await applyMigrations(databaseUrl, undefined, (m) => step(m));
  ok(applied.length > 0 ? `applied ${applied.length} migration(s)` : "database schema is up to date");
}

function tokenCurl(baseUrl: string, c: CustomerCredentials): string {
  const body = JSON.stringify({ grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret });
  return `curl -s -X POST ${baseUrl}/oauth/token -H 'content-type: application/json' -d '${body}'`;
}

function printSummary(config: AppConfig, c: CustomerCredentials): void {
  const rule = paint("cyan", "─".repeat(72));
  const rows: [string, string | number][] = [
    ["customerId", c.customerId],
    ["userId", c.userId],
    ["clientId", c.clientId],
    ["clientSecret", c.clientSecret],
    ["apiKey", c.apiKey],
    ["apiSecret", c.apiSecret],
  ];
  const lines = [
    rule,
    `${paint("bold", "E-Sign is up:")} ${paint("green", config.PUBLIC_BASE_URL)}`,
    "",
    `Demo customer (saved in ${path.relative(REPO_ROOT, CREDENTIALS_FILE)}):`,
    ...rows.map(([k, v]) => `  ${k.padEnd(13)} ${v}`),
    "",
    "Get an access token:",
    `  ${tokenCurl(config.PUBLIC_BASE_URL, c)}`,
    "",
    "Press Ctrl-C to stop all services.",
    rule,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** Runs the services until they stop; resolves with the process exit code. */
async function runServices(config: AppConfig, credentials: CustomerCredentials): Promise<number> {
  const specs = serviceSpecs(config);
  step(`starting ${specs.map((s) => s.name).join(", ")}`);
  const supervisor = supervise(specs, REPO_ROOT);
  const notReady = await Promise.race([waitForServices(specs, supervisor.stopping), supervisor.done.then(() => null)]);
  if (notReady === null || supervisor.stopping.aborted) return supervisor.done;
  if (notReady.length > 0) {
    fail(`not ready in time: ${notReady.join("; ")}`);
    supervisor.stop();
    await supervisor.done;
    return 1;
  }
  printSummary(config, credentials);
  return supervisor.done;
}

async function main(): Promise<number> {
  const config = loadConfig();
  await ensurePostgres(config.DATABASE_URL, REPO_ROOT);
  await ensureRedis(config.REDIS_URL, REPO_ROOT);
  // Migrations hold a session-level advisory lock: never through a transaction-mode pooler.
  await migrate(config.DATABASE_SESSION_URL ?? config.DATABASE_URL);
  const demo = await ensureDemoCustomer(config.DATABASE_URL, config.ENCRYPTION_KEY, CREDENTIALS_FILE);
  ok(demo.created ? `created demo customer ${demo.credentials.customerId}` : `reusing demo customer ${demo.credentials.customerId}`);
  const started = Date.now();
  await buildServices();
  ok(`built the service bundles in ${Date.now() - started} ms`);
  return runServices(config, demo.credentials);
}

function report(err: unknown): number {
  if (err instanceof UpError) {
    fail(err.message);
    if (err.hint) process.stderr.write(`${indent(err.hint, "  ")}\n`);
  } else if (err instanceof ConfigError) {
    fail(err.message);
  } else {
    fail(err instanceof Error ? (err.stack ?? err.message) : String(err));
  }
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(report(err)),
);

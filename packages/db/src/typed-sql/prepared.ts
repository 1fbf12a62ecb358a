import { createHash } from "node:crypto";
import type { Pool, PoolClient } from "pg";

/*
 * Prepared statements for the typed SQL whose text repeats (reuse "shape" or "value"). Sent
 * unnamed, every statement is parsed, analysed and planned by PostgreSQL at every call: the
 * PostgreSQL backends were the largest part of a case file's CPU after the gateway (bench/README.md,
 * issue 25). Named, a connection parses it once and, after a few runs, keeps a generic plan when it
 * is as good. The name is a digest of the text, so one text is one statement on every connection.
 *
 * Off for a pool behind a transaction-mode pooler that cannot carry them (PgBouncer before 1.21):
 * DB_PREPARED_STATEMENTS=false. A statement whose cached plan no longer fits the table (a migration
 * changed a row type under a running process: "cached plan must not change result type") is run
 * unnamed from then on.
 */

const pools = new WeakSet<Pool>();
const clients = new WeakSet<PoolClient>();
const names = new Map<string, string>();
const retired = new Set<string>();
const MAX_NAMES = 2000;

/** Lets the pool's connections run repeated statements prepared (DB_PREPARED_STATEMENTS). */
export function prepareStatements(pool: Pool): void {
  pools.add(pool);
  pool.on("connect", (client: PoolClient) => {
    clients.add(client);
  });
}

/** The prepared statement's name for a repeated text run on `on`, or undefined to send it unnamed. */
export function preparedNameOn(on: unknown, sql: string): string | undefined {
  if (!pools.has(on as Pool) && !clients.has(on as PoolClient)) return undefined;
  let name = names.get(sql);
  if (name === undefined) {
    name = `esign_${createHash("sha256").update(sql).digest("base64url").slice(0, 32)}`;
    if (names.size >= MAX_NAMES) names.delete(names.keys().next().value as string);
    names.set(sql, name);
  }
  return retired.has(name) ? undefined : name;
}

/** Whether `err` says the prepared statement's plan no longer fits its tables: the caller runs it again unnamed, and it stays unnamed. */
export function retireIfStale(name: string, err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : "";
  if (code !== "0A000" || !/cached plan must not change result type/.test(message)) return false;
  retired.add(name);
  return true;
}

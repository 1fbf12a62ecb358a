import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { freePort } from "./ports";

/**
 * A PgBouncer of the test's own (Debian's `pgbouncer`) in transaction mode, in front of one
 * PostgreSQL server: what a deployment past a few replicas puts between its pools and the database.
 * Trust auth on 127.0.0.1 like the servers it fronts; `postgres` is also its admin (SHOW STATS).
 */
export interface PgBouncer {
  readonly port: number;
  /** The same database URL, through the bouncer. */
  through(databaseUrl: string): string;
  /** Transactions and queries it has carried for one database (its SHOW STATS). */
  stats(database: string): Promise<{ transactions: number; queries: number }>;
  stop(): Promise<void>;
}

export function findPgBouncer(): string | undefined {
  return ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((p) => existsSync(p));
}

export async function startPgBouncer(serverPort: number): Promise<PgBouncer> {
  const binary = findPgBouncer();
  if (!binary) throw new Error("pgbouncer is not installed (Debian: apt-get install pgbouncer; .ci/run installs it)");
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "esign-pgbouncer-"));
  const ini = path.join(dir, "pgbouncer.ini");
  const users = path.join(dir, "users.txt");
  writeFileSync(users, '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=127.0.0.1 port=${serverPort}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${users}`,
      "admin_users = postgres",
      "pool_mode = transaction",
      // Every replica's pool (10 each) fits in the bouncer; the server sees at most default_pool_size.
      "max_client_conn = 1000",
      "default_pool_size = 20",
      // PostgreSQL restarts in the soak: connect again soon, keep clients waiting meanwhile.
      "server_login_retry = 1",
      "query_wait_timeout = 30",
      "log_connections = 0",
      "log_disconnections = 0",
      "",
    ].join("\n"),
  );
  // PgBouncer refuses to run as root: on a root shell it runs as the postgres user, which must read its files.
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    chmodSync(dir, 0o755);
    chownSync(ini, 0, 0);
    chmodSync(ini, 0o644);
    chmodSync(users, 0o644);
  }
  const child: ChildProcess = spawn(binary, [...(asRoot ? ["-u", "postgres"] : []), ini], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));

  const admin = () => new Client({ host: "127.0.0.1", port, user: "postgres", database: "pgbouncer" });
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}:\n${output}`);
    const client = admin();
    try {
      await client.connect();
      await client.query("SHOW VERSION");
      break;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`pgbouncer not answering: ${(err as Error).message}\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  return {
    port,
    through(databaseUrl) {
      const url = new URL(databaseUrl);
      url.host = `127.0.0.1:${port}`;
      return url.toString();
    },
    async stats(database) {
      const client = admin();
      await client.connect();
      try {
        // The admin console speaks the simple protocol only: no parameters.
        const { rows } = await client.query<{ database: string; total_xact_count: string; total_query_count: string }>("SHOW STATS");
        const row = rows.find((r) => r.database === database);
        return { transactions: Number(row?.total_xact_count ?? 0), queries: Number(row?.total_query_count ?? 0) };
      } finally {
        await client.end();
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise<void>((r) => child.once("exit", () => r()));
        child.kill("SIGINT");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findServerBinaries, initCluster, startCluster, stopCluster } from "../../scripts/up/postgres-cluster";
import { freePort } from "./ports";

/**
 * A PostgreSQL cluster of the test's own, for tests that stop and restart PostgreSQL (the shared one
 * belongs to everyone). Made the way `pnpm start` makes its own (scripts/up/postgres-cluster.ts):
 * initdb in a temporary folder, trust auth on 127.0.0.1, a free port. Restarts keep port and data.
 */
export interface PostgresServer {
  readonly port: number;
  /** `postgresql://postgres@127.0.0.1:<port>/<database>` */
  url(database: string): string;
  isRunning(): boolean;
  /** `pg_ctl stop -m fast`: sessions are ended at once, as a restart or a failover ends them. */
  shutdown(): Promise<void>;
  /** Starts again on the same port and data; resolves once it accepts connections. */
  restart(): Promise<void>;
  /** Shuts down if running and removes the data folder. */
  stop(): Promise<void>;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = findServerBinaries();
  if (!bin) throw new Error("no PostgreSQL server binaries (initdb, pg_ctl) found on this machine");
  const port = await freePort();
  // The folder itself is the data directory: on a root shell it is handed to the postgres user, who
  // could not enter a private parent folder.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "esign-pg-"));
  const logFile = path.join(dataDir, "server.log");
  let running = false;

  await initCluster(bin, dataDir, "postgres");
  await startCluster(bin, dataDir, port, logFile);
  running = true;

  const shutdown = async () => {
    if (!running) return;
    await stopCluster(bin, dataDir, "fast");
    running = false;
  };
  return {
    port,
    url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    isRunning: () => running,
    shutdown,
    async restart() {
      if (running) throw new Error("PostgreSQL is still running");
      await startCluster(bin, dataDir, port, logFile);
      running = true;
    },
    async stop() {
      await shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

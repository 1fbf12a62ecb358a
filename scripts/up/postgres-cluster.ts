import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { findExecutable, indent, runCommand, subdirectories } from "./run-command";

const DEBIAN_BIN_ROOT = "/usr/lib/postgresql";

/**
 * A PostgreSQL cluster of our own, made with the server's own tools (initdb, pg_ctl): `pnpm start`
 * runs one under .data/postgres when nothing listens, and tests that restart PostgreSQL run one in
 * a temporary folder. Failures throw with the tool's output; callers add their own hints.
 */

/** The directory holding initdb and pg_ctl: the PATH first, then Debian's versioned directories. */
export function findServerBinaries(): string | undefined {
  const versioned = subdirectories(DEBIAN_BIN_ROOT)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(DEBIAN_BIN_ROOT, v, "bin"));
  const initdb = findExecutable("initdb", versioned);
  return initdb && findExecutable("pg_ctl", [path.dirname(initdb)]) ? path.dirname(initdb) : undefined;
}

export class ClusterToolError extends Error {
  constructor(
    readonly tool: string,
    readonly output: string,
    code: number | null,
  ) {
    super(`${tool} failed (exit ${String(code)}):\n${indent(output)}`);
    this.name = "ClusterToolError";
  }
}

/** initdb and postgres refuse to run as root; on a root shell they run as the `postgres` user instead. */
async function asServerUser(command: string, args: string[], dataDir: string): Promise<{ command: string; args: string[] }> {
  if (process.getuid?.() !== 0) return { command, args };
  const chown = await runCommand("chown", ["-R", "postgres:", dataDir]);
  if (chown.code !== 0) throw new ClusterToolError(`handing ${dataDir} to the postgres user (PostgreSQL cannot run as root)`, chown.output, chown.code);
  return { command: "runuser", args: ["-u", "postgres", "--", command, ...args] };
}

/** Runs one of the server's tools on `dataDir` (as the postgres user on a root shell). */
export async function runServerTool(bin: string, tool: string, args: string[], dataDir: string): Promise<void> {
  const run = await asServerUser(path.join(bin, tool), args, dataDir);
  const result = await runCommand(run.command, run.args);
  if (result.code !== 0) throw new ClusterToolError(`${tool} ${args.join(" ")}`, result.output, result.code);
}

/**
 * A new cluster in `dataDir` (created, must be empty): trust auth because it listens on 127.0.0.1
 * only and the default DATABASE_URL has no password; no Unix socket, since its default directory
 * (/var/run/postgresql) is often not writable and nothing here uses it.
 */
export async function initCluster(bin: string, dataDir: string, user: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  await runServerTool(bin, "initdb", ["-D", dataDir, "-U", user, "--auth=trust", "--encoding=UTF8", "--no-locale"], dataDir);
  appendFileSync(path.join(dataDir, "postgresql.conf"), "\n# added by scripts/up\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\n");
}

/** Starts the cluster on `port` and waits until it accepts connections. */
export function startCluster(bin: string, dataDir: string, port: number, logFile: string): Promise<void> {
  return runServerTool(bin, "pg_ctl", ["-D", dataDir, "-l", logFile, "-o", `-p ${port}`, "-w", "-t", "60", "start"], dataDir);
}

/** Stops the cluster: `fast` ends the sessions at once (what a restart or failover does to clients). */
export function stopCluster(bin: string, dataDir: string, mode: "smart" | "fast" | "immediate" = "fast"): Promise<void> {
  return runServerTool(bin, "pg_ctl", ["-D", dataDir, "-m", mode, "-w", "-t", "60", "stop"], dataDir);
}

import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { withDatabase } from "@esign/db";
import { canConnect, isLocalHost, portOf } from "./network";
import { ok, step } from "./output";
import { findExecutable, indent, runCommand, subdirectories } from "./run-command";
import { UpError } from "./up-error";
import { probeSafely, waitUntil, type ProbeResult } from "./wait";

const WAIT_MS = 30_000;
const PROBE_TIMEOUT_MS = 5000;
const DEBIAN_CONFIG_DIR = "/etc/postgresql";
const DEBIAN_BIN_ROOT = "/usr/lib/postgresql";
const LOGIN_REFUSED = /password|authentication|no pg_hba\.conf entry|role .* does not exist/i;

interface PgTarget {
  host: string;
  port: number;
  user: string;
  /** The server's own `postgres` database: ours may not exist yet, and migrate creates it. */
  serverUrl: string;
  label: string;
}

function parseTarget(databaseUrl: string): PgTarget {
  const url = new URL(databaseUrl);
  const port = portOf(url, 5432);
  const server = new URL(databaseUrl);
  server.pathname = "/postgres";
  const user = decodeURIComponent(url.username) || "postgres";
  return { host: url.hostname, port, user, serverUrl: server.toString(), label: `PostgreSQL at ${url.hostname}:${port}` };
}

/** `SELECT 1` with a deadline: a server that accepts TCP but never finishes the handshake must not hang up. */
function selectOne(target: PgTarget): Promise<ProbeResult> {
  const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer within 5s")), PROBE_TIMEOUT_MS).unref());
  return probeSafely(() => Promise.race([withDatabase(target.serverUrl, (c) => c.query("SELECT 1")), deadline]));
}

function installHint(target: PgTarget): string {
  return [
    "Install PostgreSQL and start it, then run `pnpm start` again:",
    "  sudo apt-get install -y postgresql",
    "  sudo pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | sort -V | tail -1) main start",
    "  sudo -u postgres psql -c \"ALTER USER postgres PASSWORD 'postgres'\"",
    `  export DATABASE_URL=postgresql://postgres:postgres@127.0.0.1:${target.port}/esign`,
    "(or any PostgreSQL 14+ you can reach: set DATABASE_URL to it)",
  ].join("\n");
}

/** apt's clusters want a password over TCP, while the default DATABASE_URL has none. */
function authHint(target: PgTarget, reason: string): string {
  if (/role .* does not exist/i.test(reason)) {
    return `Create the role (trust or password login), or use an existing one in DATABASE_URL:\n  sudo -u postgres createuser --superuser ${target.user}`;
  }
  return [
    "The server answers but refuses the login. Either give the user a password and put it in DATABASE_URL:",
    `  sudo -u postgres psql -c "ALTER USER ${target.user} PASSWORD 'postgres'"`,
    `  export DATABASE_URL=postgresql://${target.user}:postgres@127.0.0.1:${target.port}/esign`,
    "or allow trust logins from 127.0.0.1 in pg_hba.conf and reload PostgreSQL.",
  ].join("\n");
}

/** A Debian cluster (`/etc/postgresql/<version>/main`) configured for the port in the URL, newest first. */
function findDebianCluster(port: number): string | undefined {
  const versions = subdirectories(DEBIAN_CONFIG_DIR).sort((a, b) => Number(b) - Number(a));
  return versions.find((version) => {
    const conf = path.join(DEBIAN_CONFIG_DIR, version, "main", "postgresql.conf");
    if (!existsSync(conf)) return false;
    const match = /^\s*port\s*=\s*(\d+)/m.exec(readFileSync(conf, "utf8"));
    return Number(match?.[1] ?? 5432) === port;
  });
}

async function startDebianCluster(version: string, target: PgTarget): Promise<void> {
  const args = ["--skip-systemctl-redirect", version, "main", "start"];
  step(`starting the installed cluster: pg_ctlcluster ${args.join(" ")}`);
  const result = await runCommand("pg_ctlcluster", args);
  if (result.code !== 0) {
    throw new UpError(
      `pg_ctlcluster could not start cluster ${version}/main (exit ${String(result.code)}):\n${indent(result.output)}`,
      `Start it yourself (it needs root or the postgres user):\n  sudo pg_ctlcluster --skip-systemctl-redirect ${version} main start\n\n${installHint(target)}`,
    );
  }
}

/** initdb and postgres refuse to run as root; on a root shell they run as the `postgres` user instead. */
async function asServerUser(command: string, args: string[], dataDir: string): Promise<{ command: string; args: string[] }> {
  if (process.getuid?.() !== 0) return { command, args };
  const chown = await runCommand("chown", ["-R", "postgres:", dataDir]);
  if (chown.code !== 0) {
    throw new UpError(`PostgreSQL cannot run as root and handing ${dataDir} to the postgres user failed:\n${indent(chown.output)}`, "Run `pnpm start` as a normal user, or create a `postgres` system user.");
  }
  return { command: "runuser", args: ["-u", "postgres", "--", command, ...args] };
}

async function runServerTool(command: string, args: string[], dataDir: string, what: string, target: PgTarget): Promise<void> {
  const run = await asServerUser(command, args, dataDir);
  const result = await runCommand(run.command, run.args);
  if (result.code !== 0) {
    throw new UpError(`${what} failed (exit ${String(result.code)}):\n${indent(result.output)}`, installHint(target));
  }
}

/**
 * A cluster of our own under .data/postgres: trust auth because it listens on 127.0.0.1 only and
 * the default DATABASE_URL has no password; no Unix socket, since its default directory
 * (/var/run/postgresql) is often not writable and nothing here uses it.
 */
async function startOwnCluster(bin: string, target: PgTarget, repoRoot: string): Promise<void> {
  const dataDir = path.join(repoRoot, ".data", "postgres");
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    step(`creating a PostgreSQL cluster in ${dataDir} (user ${target.user}, trust auth)`);
    const initArgs = ["-D", dataDir, "-U", target.user, "--auth=trust", "--encoding=UTF8", "--no-locale"];
    await runServerTool(path.join(bin, "initdb"), initArgs, dataDir, "initdb", target);
    appendFileSync(path.join(dataDir, "postgresql.conf"), "\n# added by scripts/up.ts\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\n");
  }
  const logFile = path.join(dataDir, "server.log");
  step(`starting PostgreSQL from ${dataDir} on port ${target.port} (log: ${logFile})`);
  const startArgs = ["-D", dataDir, "-l", logFile, "-o", `-p ${target.port}`, "-w", "-t", "60", "start"];
  await runServerTool(path.join(bin, "pg_ctl"), startArgs, dataDir, "pg_ctl start", target);
  step(`started by up; stop it with: ${path.join(bin, "pg_ctl")} -D ${dataDir} stop`);
}

/** The directory holding initdb and pg_ctl: the PATH first, then Debian's versioned directories. */
function findServerBinaries(): string | undefined {
  const versioned = subdirectories(DEBIAN_BIN_ROOT)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(DEBIAN_BIN_ROOT, v, "bin"));
  const initdb = findExecutable("initdb", versioned);
  return initdb && findExecutable("pg_ctl", [path.dirname(initdb)]) ? path.dirname(initdb) : undefined;
}

async function startPostgres(target: PgTarget, repoRoot: string): Promise<void> {
  const cluster = findExecutable("pg_ctlcluster") ? findDebianCluster(target.port) : undefined;
  if (cluster) return startDebianCluster(cluster, target);
  const bin = findServerBinaries();
  if (bin) return startOwnCluster(bin, target, repoRoot);
  throw new UpError(`${target.label} is not running and no PostgreSQL server is installed.`, installHint(target));
}

/** Makes sure PostgreSQL answers `SELECT 1`, starting a local one when nothing listens on a local URL. */
export async function ensurePostgres(databaseUrl: string, repoRoot: string): Promise<void> {
  const target = parseTarget(databaseUrl);
  step(`checking ${target.label}`);
  if (!(await canConnect(target.host, target.port))) {
    if (!isLocalHost(target.host)) {
      throw new UpError(`${target.label} does not answer, and it is not on this machine, so up cannot start it.`, "Start that server, or point DATABASE_URL at a reachable one.");
    }
    await startPostgres(target, repoRoot);
  }
  const result = await waitUntil(target.label, () => selectOne(target), { timeoutMs: WAIT_MS, permanent: LOGIN_REFUSED });
  if (!result.ready) {
    const hint = LOGIN_REFUSED.test(result.reason)
      ? authHint(target, result.reason)
      : isLocalHost(target.host)
        ? installHint(target)
        : "Check that this server is running and reachable from here, or point DATABASE_URL at another one.";
    throw new UpError(`${target.label} did not answer SELECT 1: ${result.reason}`, hint);
  }
  ok(`${target.label} answers SELECT 1`);
}

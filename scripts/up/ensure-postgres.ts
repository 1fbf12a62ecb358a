import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ping, run, withDatabase } from "@esign/db";
import { canConnect, isLocalHost, portOf } from "./network";
import { ok, step } from "./output";
import { ClusterToolError, findServerBinaries, initCluster, startCluster } from "./postgres-cluster";
import { findExecutable, indent, runCommand, subdirectories } from "./run-command";
import { UpError } from "./up-error";
import { probeSafely, waitUntil, type ProbeResult } from "./wait";

const WAIT_MS = 30_000;
const PROBE_TIMEOUT_MS = 5000;
const DEBIAN_CONFIG_DIR = "/etc/postgresql";
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
  return probeSafely(() => Promise.race([withDatabase(target.serverUrl, (c) => run(c, ping, {})), deadline]));
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

/** A cluster of our own under .data/postgres (see postgres-cluster.ts), created on first use. */
async function startOwnCluster(bin: string, target: PgTarget, repoRoot: string): Promise<void> {
  const dataDir = path.join(repoRoot, ".data", "postgres");
  const logFile = path.join(dataDir, "server.log");
  try {
    if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
      step(`creating a PostgreSQL cluster in ${dataDir} (user ${target.user}, trust auth)`);
      await initCluster(bin, dataDir, target.user);
    }
    step(`starting PostgreSQL from ${dataDir} on port ${target.port} (log: ${logFile})`);
    await startCluster(bin, dataDir, target.port, logFile);
  } catch (err) {
    if (err instanceof ClusterToolError) throw new UpError(err.message, installHint(target));
    throw err;
  }
  step(`started by up; stop it with: ${path.join(bin, "pg_ctl")} -D ${dataDir} stop`);
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
      throw new UpError(
        `${target.label} does not answer, and it is not on this machine, so up cannot start it.`,
        "Start that server, or point DATABASE_URL at a reachable one.",
      );
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

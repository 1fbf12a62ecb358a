import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, fstatSync, mkdirSync, openSync, readSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundlePath } from "../../scripts/build-services";
import { freePort } from "../../test/support/ports";

export const REPO_ROOT = path.resolve(__dirname, "../..");

export type ServiceName = "api-gateway" | "casefile-worker" | "notifier" | "webhook-dispatcher";

const LOG_TAIL_BYTES = 64 * 1024;

/**
 * A service process started exactly as the Dockerfile starts it (`node --enable-source-maps
 * services/<name>/dist/main.cjs`, the bundle bench/run.ts builds first; a bench script through tsx), its
 * output going straight to a log file (as to a log collector in production): piped, every log line
 * would cost the bench process - which is also the load generator - CPU that the silent baselines
 * never cause. Optionally under `--cpu-prof`.
 */
export class BenchProcess {
  private readonly exited: Promise<number | null>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly port: number,
    readonly logFile: string,
  ) {
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The last 64 KB of the output (for errors). */
  get logs(): string {
    const fd = openSync(this.logFile, "r");
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, LOG_TAIL_BYTES);
      const buf = Buffer.alloc(length);
      readSync(fd, buf, 0, length, size - length);
      return buf.toString();
    } finally {
      closeSync(fd);
    }
  }

  isRunning(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async waitReady(pathname = "/readyz", timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.isRunning()) throw new Error(`${this.name} exited during start:\n${this.logs}`);
      try {
        const res = await fetch(`${this.url}${pathname}`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.name} not ready after ${timeoutMs} ms:\n${this.logs}`);
  }

  /** SIGTERM (the services' clean shutdown; --cpu-prof writes its profile then), SIGKILL after a grace. */
  async stop(graceMs = 20_000): Promise<number | null> {
    if (this.isRunning()) this.child.kill("SIGTERM");
    const killer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
    const code = await this.exited;
    clearTimeout(killer);
    return code;
  }
}

export interface SpawnOptions {
  env: Record<string, string>;
  /** Where the output goes: `<name>-<port>.log` in this folder (default: next to STORAGE_DIR, else the temp folder). */
  logDir?: string;
  /** Write a V8 CPU profile (.cpuprofile) into this folder when the process exits. */
  cpuProfDir?: string;
}

/** A bundle (`.cjs`) runs as is; a TypeScript script through tsx. */
function nodeArgs(entry: string, cpuProfDir: string | undefined): string[] {
  const prof = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [];
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });
  return [...prof, ...(entry.endsWith(".cjs") ? ["--enable-source-maps"] : ["--import", "tsx"]), entry];
}

function openLog(name: string, port: number, opts: SpawnOptions): { file: string; fd: number } {
  const dir = opts.logDir ?? (opts.env.STORAGE_DIR ? path.join(path.dirname(opts.env.STORAGE_DIR), "logs") : path.join(os.tmpdir(), "esign-bench-logs"));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${port}.log`);
  return { file, fd: openSync(file, "a") };
}

/** Spawns with the log file as stdout and stderr; the child keeps its own copy of the descriptor. */
function spawnLogged(name: string, port: number, args: string[], env: Record<string, string>, opts: SpawnOptions, ipc: boolean): BenchProcess {
  const log = openLog(name, port, opts);
  try {
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: ipc ? ["ignore", log.fd, log.fd, "ipc"] : ["ignore", log.fd, log.fd],
    });
    return new BenchProcess(name, child, port, log.file);
  } finally {
    closeSync(log.fd);
  }
}

/** Starts one of the four services and waits for its /readyz. */
export async function startBenchService(name: ServiceName, opts: SpawnOptions): Promise<BenchProcess> {
  const port = await freePort();
  const portEnv: Record<string, string> = name === "api-gateway" ? { PORT: String(port) } : { HEALTH_PORT: String(port) };
  const proc = spawnLogged(name, port, nodeArgs(bundlePath(name), opts.cpuProfDir), { ...opts.env, ...portEnv }, opts, false);
  await proc.waitReady();
  return proc;
}

/** Starts a bench-owned script (a baseline server) the same way, on its own port (env PORT). */
export async function startBenchScript(name: string, script: string, opts: SpawnOptions & { readyPath?: string }): Promise<BenchProcess> {
  const port = await freePort();
  const proc = spawnLogged(name, port, nodeArgs(path.join(REPO_ROOT, script), opts.cpuProfDir), { ...opts.env, PORT: String(port) }, opts, true);
  await proc.waitReady(opts.readyPath ?? "/healthz");
  return proc;
}

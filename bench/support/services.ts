import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { freePort } from "../../test/support/ports";

export const REPO_ROOT = path.resolve(__dirname, "../..");

export type ServiceName = "api-gateway" | "casefile-worker" | "notifier" | "webhook-dispatcher";

const LOG_TAIL_BYTES = 64 * 1024;

/**
 * A service process started exactly as the Dockerfile starts it (`node --import tsx <main>`), with
 * only the tail of its output kept (a bench run logs a lot). Optionally under `--cpu-prof`.
 */
export class BenchProcess {
  private tail = "";
  private readonly exited: Promise<number | null>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    const keep = (d: Buffer) => {
      this.tail = (this.tail + d.toString()).slice(-LOG_TAIL_BYTES);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get logs(): string {
    return this.tail;
  }

  isRunning(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async waitReady(pathname = "/readyz", timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.isRunning()) throw new Error(`${this.name} exited during start:\n${this.tail}`);
      try {
        const res = await fetch(`${this.url}${pathname}`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.name} not ready after ${timeoutMs} ms:\n${this.tail}`);
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
  /** Write a V8 CPU profile (.cpuprofile) into this folder when the process exits. */
  cpuProfDir?: string;
}

function nodeArgs(entry: string, cpuProfDir: string | undefined): string[] {
  const prof = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [];
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });
  return [...prof, "--import", "tsx", entry];
}

/** Starts one of the four services and waits for its /readyz. */
export async function startBenchService(name: ServiceName, opts: SpawnOptions): Promise<BenchProcess> {
  const port = await freePort();
  const portEnv = name === "api-gateway" ? { PORT: String(port) } : { HEALTH_PORT: String(port) };
  const child = spawn(process.execPath, nodeArgs(path.join(REPO_ROOT, "services", name, "src/main.ts"), opts.cpuProfDir), {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...opts.env, ...portEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc = new BenchProcess(name, child, port);
  await proc.waitReady();
  return proc;
}

/** Starts a bench-owned script (a baseline server) the same way, on its own port (env PORT). */
export async function startBenchScript(name: string, script: string, opts: SpawnOptions & { readyPath?: string }): Promise<BenchProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, nodeArgs(path.join(REPO_ROOT, script), opts.cpuProfDir), {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...opts.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const proc = new BenchProcess(name, child, port);
  await proc.waitReady(opts.readyPath ?? "/healthz");
  return proc;
}

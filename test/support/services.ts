import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { bundlePath } from "../../scripts/build-services";
import { listensOnPort } from "./port-owner";
import { freePort } from "./ports";

export const REPO_ROOT = path.resolve(__dirname, "../..");

export type ServiceName = "api-gateway" | "casefile-worker" | "notifier" | "webhook-dispatcher";

/** A real service process, started the way production starts it, with its output kept for failures. */
export class ServiceProcess {
  private output = "";
  private exited: Promise<number | null>;

  constructor(
    readonly name: ServiceName,
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout?.on("data", (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (this.output += d.toString()));
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  get logs(): string {
    return this.output;
  }

  /** Its last `max` output lines logged at one of `levels`, for a failing test's message. */
  linesAt(levels: readonly string[] = ["error"], max = 10): string[] {
    return this.output
      .split("\n")
      .filter((l) => levels.some((level) => l.includes(`"level":"${level}"`)))
      .slice(-max);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  isRunning(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  // 60 s: on a starved machine (five test shards on two cores beside a busy neighbour) a service's
  // first connections took over 30 s, and suites failed before their first test; a service that
  // never becomes ready still fails here, with its output.
  async waitReady(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.isRunning()) throw new Error(`${this.name} exited during start:\n${this.output}`);
      try {
        const res = await fetch(`${this.url}/readyz`);
        // Answered by this service, not by another suite's process on the same port (port-owner.ts).
        if (res.ok && this.child.pid !== undefined && listensOnPort(this.child.pid, this.port) !== false) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.name} not ready after ${timeoutMs} ms:\n${this.output}`);
  }

  /** SIGTERM and wait: the clean shutdown path. */
  async stop(): Promise<number | null> {
    if (this.isRunning()) this.child.kill("SIGTERM");
    return this.exited;
  }

  /** SIGKILL: a crash, nothing gets to clean up. */
  async kill(): Promise<void> {
    if (this.isRunning()) this.child.kill("SIGKILL");
    await this.exited;
  }

  waitExit(): Promise<number | null> {
    return this.exited;
  }
}

/** `port`: listen there (a replica restarted where it was); by default a free one. */
export async function startService(name: ServiceName, env: Record<string, string> = {}, port?: number): Promise<ServiceProcess> {
  port ??= await freePort();
  const portEnv = name === "api-gateway" ? { PORT: String(port) } : { HEALTH_PORT: String(port) };
  // The bundle, as production runs it (built by the test run's global setup: scripts/build-services.ts).
  const child = spawn(process.execPath, ["--enable-source-maps", bundlePath(name)], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_FORMAT: "json", ...portEnv, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const svc = new ServiceProcess(name, child, port);
  try {
    await svc.waitReady();
  } catch (err) {
    // Never leave a half-started process behind holding the port.
    await svc.kill();
    throw err;
  }
  return svc;
}

import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

export interface GotLoopSpec {
  cmd: "burst" | "rate";
  events: { id: string; type: string; body: string }[];
  subscriptions: { url: string; secret: string }[];
  concurrency: number;
  rate?: number;
  durationMs?: number;
}

export interface GotLoopDone {
  ok: number;
  failed: number;
  startedAt: number;
  endedAt: number;
}

/** Parent side of bench/baselines/got-loop.ts (its own process, like the dispatcher). */
export class GotLoop {
  private constructor(private readonly child: ChildProcess) {}

  static async start(cpuProfDir?: string): Promise<GotLoop> {
    const child = fork(path.join(__dirname, "../baselines/got-loop.ts"), [], {
      execArgv: [...(cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : []), "--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "advanced",
    });
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`got loop exited with ${code}`)));
    });
    return new GotLoop(child);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  run(spec: GotLoopSpec): Promise<GotLoopDone> {
    return new Promise((resolve) => {
      this.child.once("message", (m: GotLoopDone) => resolve(m));
      this.child.send(spec);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once("exit", r));
    this.child.disconnect();
    await exited;
  }
}

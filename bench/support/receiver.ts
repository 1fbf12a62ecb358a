import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

export interface ReceiverDump {
  ids: string[];
  paths: string[];
  at: number[];
  intended: number[];
  verifiedOk: number;
  verifiedFailed: number;
}

/** Parent side of bench/support/receiver-process.ts. */
export class Receiver {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static async start(): Promise<Receiver> {
    const child = fork(path.join(__dirname, "receiver-process.ts"), [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "advanced",
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once("message", (m: { type: string; port: number }) => (m.type === "ready" ? resolve(m.port) : reject(new Error("receiver"))));
      child.once("exit", (code) => reject(new Error(`receiver exited with ${code}`)));
    });
    return new Receiver(child, port);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  url(p: string): string {
    return `http://127.0.0.1:${this.port}${p}`;
  }

  private ask<T>(msg: object, type: string): Promise<T> {
    return new Promise((resolve) => {
      const onMessage = (m: { type: string }) => {
        if (m.type !== type) return;
        this.child.off("message", onMessage);
        resolve(m as T);
      };
      this.child.on("message", onMessage);
      this.child.send(msg);
    });
  }

  configure(status: number, secrets: Record<string, string> = {}): Promise<void> {
    return this.ask({ cmd: "config", status, secrets }, "config").then(() => undefined);
  }

  async count(): Promise<number> {
    return (await this.ask<{ n: number }>({ cmd: "count" }, "count")).n;
  }

  dump(reset = true): Promise<ReceiverDump> {
    return this.ask<ReceiverDump>({ cmd: "dump", reset }, "dump");
  }

  /** Resolves with the count once it reaches `n` or `timeoutMs` passes. */
  async waitFor(n: number, timeoutMs: number, pollMs = 50): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let c = await this.count();
    while (c < n && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, pollMs));
      c = await this.count();
    }
    return c;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once("exit", r));
    this.child.send({ cmd: "stop" });
    await exited;
  }
}

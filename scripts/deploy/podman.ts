// Podman as this project runs it (pnpm test:deploy): Debian's podman with runc, the cgroupfs manager
// and host networking, through a containers.conf the project writes itself (CONTAINERS_CONF), because
// crun, the systemd cgroup manager, bridge networks and podman's default open-file and process limits
// all fail on these machines. Every podman call of the project goes through here.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");
/** Where test:deploy keeps what it makes (the base image's inputs, certificates, logs): gitignored. */
export const DEPLOY_DATA = path.join(ROOT, ".data", "deploy");
export const CONTAINERS_CONF = path.join(DEPLOY_DATA, "containers.conf");

/**
 * Limits at or below the host's (podman's defaults ask for more than these machines allow), host
 * networking (no bridge: every container listens on the host's loopback, so every port is chosen),
 * runc and cgroupfs.
 */
const CONTAINERS_CONF_TEXT = `# Written by scripts/deploy/podman.ts (pnpm test:deploy); podman reads it through CONTAINERS_CONF.
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
netns = "host"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
`;

export function writeContainersConf(): string {
  mkdirSync(DEPLOY_DATA, { recursive: true });
  writeFileSync(CONTAINERS_CONF, CONTAINERS_CONF_TEXT);
  return CONTAINERS_CONF;
}

export function podmanEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export class CommandError extends Error {
  constructor(
    readonly command: string,
    readonly result: RunResult,
  ) {
    super(`${command} exited ${result.code}:\n${(result.stderr || result.stdout).trim().split("\n").slice(-30).join("\n")}`);
    this.name = "CommandError";
  }
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  input?: string | Buffer;
  /** Each line of output as it comes (long builds), besides collecting it. */
  onLine?: (line: string) => void;
  /** Resolve with the result instead of throwing when the command fails. */
  allowFailure?: boolean;
}

/** Runs a command to completion; throws a CommandError with its last lines unless allowFailure. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let partial = "";
    const lines = (chunk: string) => {
      if (!options.onLine) return;
      partial += chunk;
      const parts = partial.split("\n");
      partial = parts.pop() ?? "";
      for (const l of parts) options.onLine(l);
    };
    child.stdout?.on("data", (c: Buffer) => {
      stdout += c.toString();
      lines(c.toString());
    });
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
      lines(c.toString());
    });
    child.once("error", (err) => reject(err));
    child.once("close", (code) => {
      const result = { code, stdout, stderr };
      if (code !== 0 && !options.allowFailure) reject(new CommandError(`${command} ${args.slice(0, 3).join(" ")}`, result));
      else resolve(result);
    });
    if (options.input !== undefined && child.stdin) {
      // A command that exits before reading its input must not crash the caller (EPIPE).
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.input);
    }
  });
}

/** `podman <args>` with the project's containers.conf. */
export function podman(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return run("podman", args, { ...options, env: { ...podmanEnv(), ...options.env } });
}

export async function imageExists(ref: string): Promise<boolean> {
  return (await podman(["image", "exists", ref], { allowFailure: true })).code === 0;
}

/** The image's size in bytes, as `podman images` reports it (all layers, uncompressed). */
export async function imageSize(ref: string): Promise<number> {
  const out = await podman(["image", "inspect", ref, "--format", "{{.Size}}"]);
  return Number(out.stdout.trim());
}

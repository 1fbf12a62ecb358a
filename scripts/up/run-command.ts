import { spawn } from "node:child_process";
import { accessSync, constants, readdirSync } from "node:fs";
import path from "node:path";

export interface CommandResult {
  code: number | null;
  /** stdout and stderr together, in order, so a failure can be shown to the developer as is. */
  output: string;
}

/** Runs a short-lived command to completion; a missing binary comes back as a failed result. */
export function runCommand(command: string, args: string[], options: { cwd?: string } = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", (err) => resolve({ code: null, output: `${output}${err.message}` }));
    child.once("close", (code) => resolve({ code, output }));
  });
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Like `command -v`, plus directories that distributions keep off the PATH (e.g. PostgreSQL's). */
export function findExecutable(name: string, extraDirs: string[] = []): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), ...extraDirs].filter(Boolean);
  return dirs.map((dir) => path.join(dir, name)).find(isExecutable);
}

/** Subdirectories of `dir`, or none when it does not exist: a missing directory just means "not installed". */
export function subdirectories(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

export function indent(text: string, prefix = "    "): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");
}

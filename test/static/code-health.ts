import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

/*
 * Shared by the code-health checks (typecheck*.unit.test.ts, import-cycles.unit.test.ts): each is a
 * file of its own so that the unit tier's two workers run them side by side.
 */
export const run = promisify(execFile);
export const ROOT = path.resolve(__dirname, "../..");
export const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);

/** The output of a tool that may exit non-zero (its complaint is the output). */
export async function outputOf(tool: string, args: string[]): Promise<string> {
  const result = await run(bin(tool), args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).catch((e: { stdout: string; stderr: string }) => e);
  return `${result.stdout}${result.stderr}`;
}

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import path from "node:path";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);

// Strict TypeScript and an acyclic import graph are properties of the code base, checked with the tests.
describe("code health", () => {
  it("type-checks under strict settings", async () => {
    const result = await run(bin("tsc"), ["-p", "tsconfig.json", "--noEmit"], { cwd: ROOT }).catch((e: { stdout: string }) => e);
    expect(result.stdout).toBe("");
  }, 180_000);

  // The benchmarks have their own project (bench/tsconfig.json): they import across the workspace.
  it("type-checks the benchmarks", async () => {
    const result = await run(bin("tsc"), ["-p", "bench/tsconfig.json"], { cwd: ROOT }).catch((e: { stdout: string }) => e);
    expect(result.stdout).toBe("");
  }, 180_000);

  it("has no import cycles", async () => {
    const result = await run(
      bin("madge"),
      ["--circular", "--extensions", "ts", "--ts-config", "tsconfig.json", "--exclude", "generated/", "--no-spinner", "packages", "services", "scripts"],
      { cwd: ROOT },
    ).catch((e: { stdout: string; stderr: string }) => e);
    // madge writes its verdict to stderr when it is not on a terminal.
    expect(`${result.stdout}${result.stderr}`).toContain("No circular dependency found");
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/Found \d+ circular/);
  }, 120_000);
});

import { execFile } from "node:child_process";
import { scriptBundlePath } from "../../scripts/build-services";
import { REPO_ROOT } from "./services";

/** A run's bound: a starved machine took up to 20 s for one `pnpm -s cli` run; this is for a hang. */
export const CLI_TIMEOUT_MS = 120_000;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Added to this process's environment (DATABASE_URL and the rest come from the test run). */
  env?: Record<string, string>;
  /**
   * "bundle" (the default): `node scripts/dist/cli.cjs`, the CLI's code as the production image runs it,
   * built by the test run's global setup like the services' bundles. "pnpm": the documented
   * `pnpm -s cli`, which starts pnpm and then tsx to load the TypeScript: about 4 s of CPU a run
   * against 1.4 s for the bundle, and on CI's two cores those seconds were taken from the other shards'
   * timing checks (two clean-clone runs failed on load, not on code). admin-cli.test.ts runs the
   * documented command itself; every other run uses the bundle.
   */
  via?: "bundle" | "pnpm";
}

/** Runs the admin CLI in the repository and resolves with its exit code and output; never rejects. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const [command, argv] = options.via === "pnpm" ? ["pnpm", ["-s", "cli", ...args]] : [process.execPath, [scriptBundlePath("cli"), ...args]];
  return new Promise((resolve) => {
    execFile(command, argv, { cwd: REPO_ROOT, env: { ...process.env, ...options.env }, timeout: CLI_TIMEOUT_MS }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");

// Biome (biome.jsonc) formats and lints the code base; `pnpm format` fixes what it can.
describe("lint and format", () => {
  it("finds the code base clean under Biome", async () => {
    const result = await run(path.join(ROOT, "node_modules/.bin/biome"), ["ci", "--colors=off", "."], { cwd: ROOT }).catch(
      (e: { stdout: string; stderr: string }) => e,
    );
    expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/Found \d+ errors?/);
    expect(`${result.stdout}\n${result.stderr}`).toMatch(/Checked \d+ files?/);
  }, 60_000);
});

import { readFileSync } from "node:fs";
import path from "node:path";
import { ZEnv } from "../src";

// An operator reads the settings in docs/operating.md: a setting that is not there does not exist for them.
describe("the settings table", () => {
  it("documents every setting of the config schema", () => {
    const doc = readFileSync(path.resolve(__dirname, "../../../docs/operating.md"), "utf8");
    const missing = Object.keys(ZEnv.shape).filter((key) => !doc.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });
});

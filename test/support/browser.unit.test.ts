import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { browserSuitePlan, CHROMIUM, describeInBrowser, hasChromium, isCi } from "./browser";

/*
 * Browser suites never pass in CI without running: the decision every browser suite takes through
 * describeInBrowser, on the inputs it reads (the CI variable, an executable Chromium).
 */

const dir = mkdtempSync(path.join(os.tmpdir(), "esign-browser-plan-"));
const missing = path.join(dir, "no-chromium-here");
const notExecutable = path.join(dir, "chromium-not-executable");
writeFileSync(notExecutable, "#!/bin/sh\n");
chmodSync(notExecutable, 0o644);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("browserSuitePlan", () => {
  it.each([true, false])("runs the suite when Chromium is installed (CI %s)", (ci) => {
    expect(browserSuitePlan("the docs page", { ci, installed: true })).toEqual({ run: true });
  });

  it("throws in CI when Chromium is missing, saying to install Debian's chromium", () => {
    expect(() => browserSuitePlan("the docs page", { ci: true, installed: false })).toThrow(
      `the docs page: ${CHROMIUM} is missing and CI is set, so this browser suite fails instead of skipping. Install Debian's chromium (apt-get install chromium)`,
    );
  });

  it("outside CI skips a suite without Chromium, with a notice that cannot be missed", () => {
    const plan = browserSuitePlan("the docs page", { ci: false, installed: false });
    expect(plan.run).toBe(false);
    const notice = plan.run ? "" : plan.notice;
    expect(notice).toContain(`!!! the docs page: SKIPPING the browser tests: ${CHROMIUM} is missing. Install Debian's chromium (apt-get install chromium)`);
    expect(notice).toContain("!".repeat(100));
  });
});

describe("isCi", () => {
  it.each(["1", "true", "TRUE", "yes"])("CI=%s is a CI run", (value) => expect(isCi({ CI: value })).toBe(true));
  it.each([undefined, "", "0", "false", "False"])("CI=%s is not", (value) => expect(isCi(value === undefined ? {} : { CI: value })).toBe(false));
});

describe("hasChromium", () => {
  it("wants an executable file at the path", () => {
    expect(hasChromium(missing)).toBe(false);
    expect(hasChromium(notExecutable)).toBe(false);
    expect(hasChromium(process.execPath)).toBe(true);
  });
});

describe("describeInBrowser", () => {
  // Called while Jest collects the tests, as a browser suite's file calls it.
  let thrown: unknown;
  try {
    describeInBrowser("a suite in CI", () => undefined, { env: { CI: "1" }, executable: missing });
  } catch (err) {
    thrown = err;
  }
  const written: string[] = [];
  const write = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => written.push(String(chunk)) > 0);
  // An empty suite: skipped, it adds no skipped test to the run.
  describeInBrowser("a suite on a laptop", () => undefined, { env: {}, executable: missing });
  write.mockRestore();

  it("fails the suite of a CI run without Chromium", () => {
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(/^a suite in CI: .* is missing and CI is set.*apt-get install chromium/);
  });

  it("prints the notice when it skips outside CI", () => {
    expect(written.join("")).toContain("!!! a suite on a laptop: SKIPPING the browser tests");
  });
});

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./code-health";

/*
 * Browser suites never skip in CI (test/support/browser.ts): a test file that starts Chromium
 * declares its browser tests with `describeInBrowser`, which fails a CI run without Chromium, and
 * never decides on its own whether to skip them.
 */

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ["node_modules", "dist", "generated"].includes(entry.name) ? [] : testFiles(full);
    return entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

const STARTS_CHROMIUM = /\blaunchChromium\(|\bchromium\s*\.\s*launch\(/;
const DECIDES_ITSELF = /\bdescribe\.skip\b|\bit\.skip\b|\btest\.skip\b|\bhasChromium\b|\bchromium\s*\.\s*launch\(/;

describe("browser suites", () => {
  const files = ["test", "packages", "services"].flatMap((top) => testFiles(path.join(ROOT, top)));
  const browserSuites = files.filter((f) => STARTS_CHROMIUM.test(readFileSync(f, "utf8")));

  it("are found (the docs page and the signing page at least)", () => {
    const names = browserSuites.map((f) => path.relative(ROOT, f));
    expect(names).toEqual(expect.arrayContaining(["test/e2e/openapi-docs-page.test.ts", "test/e2e/signing-page-browser.test.ts"]));
  });

  it("declare their browser tests with describeInBrowser and never skip on their own", () => {
    const offenders = browserSuites.flatMap((f) => {
      const text = readFileSync(f, "utf8");
      const name = path.relative(ROOT, f);
      return [
        ...(/\bdescribeInBrowser\(/.test(text) ? [] : [`${name}: starts Chromium outside describeInBrowser`]),
        ...(DECIDES_ITSELF.test(text) ? [`${name}: skips or launches Chromium by itself`] : []),
      ];
    });
    expect(offenders).toEqual([]);
  });
});

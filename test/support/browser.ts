import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { z } from "zod";
import { REPO_ROOT } from "./services";

/*
 * Debian's Chromium driven by playwright-core: the pages are tested in a real browser, headless,
 * with nothing fetched from the internet. A browser suite declares itself with `describeInBrowser`,
 * which never lets CI pass without running it: with CI set and no Chromium the suite fails, and
 * elsewhere it is skipped with a loud notice. `.ci/run` sets CI=1 and installs Chromium.
 */
export const CHROMIUM = "/usr/bin/chromium";
/** Each browser test's bound (Jest's default is 60 s); a test may set a longer one of its own. */
export const BROWSER_TEST_MS = 180_000;
const INSTALL_HINT = "Install Debian's chromium (apt-get install chromium); .ci/run installs it when absent.";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Whether Debian's Chromium is installed here (an executable at CHROMIUM). */
export function hasChromium(executable = CHROMIUM): boolean {
  try {
    accessSync(executable, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A CI run: the CI variable set to anything but "", "0" or "false" (CI=1, CI=true). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && !["", "0", "false"].includes(value);
}

export type BrowserSuitePlan = { run: true } | { run: false; notice: string };

/**
 * Whether a browser suite runs. With Chromium installed it runs; without it a CI run fails (this
 * throws, so the suite fails to load and the run counts it as failed), and any other run skips it
 * with the notice to print.
 */
export function browserSuitePlan(
  suite: string,
  { ci, installed, executable = CHROMIUM }: { ci: boolean; installed: boolean; executable?: string },
): BrowserSuitePlan {
  if (installed) return { run: true };
  if (ci) throw new Error(`${suite}: ${executable} is missing and CI is set, so this browser suite fails instead of skipping. ${INSTALL_HINT}`);
  const line = "!".repeat(100);
  return {
    run: false,
    notice: `\n${line}\n!!! ${suite}: SKIPPING the browser tests: ${executable} is missing. ${INSTALL_HINT}\n!!! With CI set this suite fails instead.\n${line}\n\n`,
  };
}

/**
 * `describe` for a suite that drives Chromium, the way every browser suite declares itself (see
 * browserSuitePlan). `env` and `executable` are for its own test.
 */
export function describeInBrowser(
  name: string,
  suite: () => void,
  { env = process.env, executable = CHROMIUM }: { env?: NodeJS.ProcessEnv; executable?: string } = {},
): void {
  const plan = browserSuitePlan(name, { ci: isCi(env), installed: hasChromium(executable), executable });
  if (plan.run) {
    // A liveness bound, not a speed check: Chromium renders on the two cores the other test shards
    // share, and a clean-clone CI run saw a signing-page test of a few page steps pass 60 s.
    jest.setTimeout(BROWSER_TEST_MS);
    return describe(name, suite);
  }
  process.stderr.write(plan.notice);
  describe.skip(`${name} (SKIPPED: ${executable} is missing)`, suite);
}

/** Starts Chromium headless; one that is installed but cannot start fails with the reason and what to install. */
export async function launchChromium(): Promise<Browser> {
  try {
    return await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  } catch (err) {
    throw new Error(`Chromium (${CHROMIUM}) could not start: ${(err as Error).message}\n${INSTALL_HINT}`);
  }
}

/** Console errors and warnings, uncaught exceptions and CSP refusals of a page, as they happen. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

const ZPixelStats = z.object({ width: z.number(), height: z.number(), samples: z.number(), nonWhite: z.number(), colors: z.number() });

/** Decodes a PNG in the browser (no image library here) and samples its pixels. */
export async function pixelStats(page: Page, png: Buffer) {
  const analyse = `async (b64) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.width;
    canvas.height = img.height;
    const g = canvas.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, canvas.width, canvas.height).data;
    let samples = 0, nonWhite = 0;
    const colors = new Set();
    for (let i = 0; i < d.length; i += 4 * 7) {
      samples++;
      if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) nonWhite++;
      colors.add(((d[i] >> 4) << 8) | ((d[i + 1] >> 4) << 4) | (d[i + 2] >> 4));
    }
    return { width: canvas.width, height: canvas.height, samples, nonWhite, colors: colors.size };
  }`;
  return ZPixelStats.parse(await page.evaluate(`(${analyse})(${JSON.stringify(png.toString("base64"))})`));
}

const ZAxeResults = z.object({
  violations: z.array(
    z.object({ id: z.string(), impact: z.string().nullable().optional(), help: z.string(), nodes: z.array(z.object({ target: z.array(z.unknown()) })) }),
  ),
  passes: z.array(z.object({ id: z.string() })),
});
export type AxeResults = z.infer<typeof ZAxeResults>;

/**
 * axe-core run inside the page. Its script is evaluated through the DevTools protocol, which the
 * page's Content-Security-Policy does not govern (the page itself allows no inline script).
 */
export async function runAxe(page: Page): Promise<AxeResults> {
  // Once per document: a page that changes screens without loading (the web application) keeps it.
  if (await page.evaluate(`typeof axe === "undefined"`)) {
    const source = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
    await page.evaluate(`${source}\n;void 0`);
  }
  const raw: unknown = await page.evaluate(`axe.run(document, { resultTypes: ["violations", "passes"] })`);
  return ZAxeResults.parse(raw);
}

/** The violations axe rates serious or critical, as "rule: help (targets)" lines. */
export const seriousViolations = (r: AxeResults) =>
  r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${JSON.stringify(v.nodes.map((n) => n.target))})`);

/**
 * Keeps a screenshot for the docs: written when missing, or again with UPDATE_DOCS_SCREENSHOT=1
 * (so ordinary runs do not dirty the tree).
 */
export async function keepScreenshot(shot: string, name: string): Promise<void> {
  const target = path.join(REPO_ROOT, "docs/screenshots", name);
  if (existsSync(target) && process.env.UPDATE_DOCS_SCREENSHOT !== "1") return;
  await mkdir(path.dirname(target), { recursive: true });
  await copyFile(shot, target);
}

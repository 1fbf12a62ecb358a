import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { z } from "zod";
import { REPO_ROOT } from "./services";

/*
 * Debian's Chromium driven by playwright-core: the pages are tested in a real browser, headless,
 * with nothing fetched from the internet. CI must install it (apt-get install chromium); without it
 * the browser suites say they are skipped.
 */
export const CHROMIUM = "/usr/bin/chromium";
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

export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
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
  const source = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(`${source}\n;void 0`);
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

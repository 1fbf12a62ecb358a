import { mkdtemp, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { z } from "zod";
import { describeInBrowser, keepScreenshot, launchChromium, pixelStats, watchProblems } from "../support/browser";
import { startService, type ServiceProcess } from "../support/services";

const CREATE = "/send/api/v1/casefiles/20251022/create";

let gateway: ServiceProcess;

beforeAll(async () => {
  gateway = await startService("api-gateway");
});

afterAll(async () => {
  await gateway?.stop();
});

describe("GET /docs over HTTP", () => {
  it("is a page without inline script, under its own CSP, that loads swagger-ui from this gateway only", async () => {
    const res = await fetch(`${gateway.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await res.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => /src="([^"]+)"/.exec(m[1] ?? "")?.[1])).toEqual(["/docs/assets/swagger-ui-bundle.js", "/docs/assets/docs-init.js"]);
    expect(scripts.every((m) => m[2] === "")).toBe(true);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it("serves the page's files of swagger-ui-dist and its initializer, and nothing else of the package", async () => {
    const types: Record<string, RegExp> = {
      "swagger-ui.css": /^text\/css/,
      "swagger-ui-bundle.js": /javascript/,
      "favicon-32x32.png": /^image\/png/,
      "docs-init.js": /javascript/,
    };
    for (const [file, type] of Object.entries(types)) {
      const res = await fetch(`${gateway.url}/docs/assets/${file}`);
      expect([file, res.status]).toEqual([file, 200]);
      expect(res.headers.get("content-type")).toMatch(type);
      if (file === "docs-init.js") expect(await res.text()).toContain('"url":"/openapi.json"');
      else await res.arrayBuffer();
    }
    for (const file of ["index.html", "swagger-initializer.js", "package.json", "..%2Fpackage.json", "swagger-ui-bundle.js.map"]) {
      expect([file, (await fetch(`${gateway.url}/docs/assets/${file}`)).status]).toEqual([file, 404]);
    }
  });
});

describeInBrowser("the docs page in Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  // swagger-ui 5.35 renders the operations as a virtual list (operations-virtual): only those near the
  // view are in the page at once, the others render as they scroll in. So the reader's check: scroll
  // through to the end a screen at a time and collect every operation that was shown.
  it("shows every one of /openapi.json's operations to a reader who scrolls through to the end", async () => {
    const doc = z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) }).parse(await (await fetch(`${gateway.url}/openapi.json`)).json());
    const expected = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${gateway.url}/docs`, { waitUntil: "load" });
    await page.locator(".opblock").first().waitFor({ state: "visible", timeout: 30_000 });
    const seen = new Set<string>();
    const collect = async () => {
      const shown = await page.$$eval(".opblock .opblock-summary", (els) =>
        els.map(
          (el) =>
            `${el.querySelector(".opblock-summary-method")?.textContent ?? ""} ${el.querySelector(".opblock-summary-path")?.getAttribute("data-path") ?? ""}`,
        ),
      );
      for (const op of shown) seen.add(op);
    };
    for (let screens = 0; screens < 600; screens++) {
      await collect();
      // Page-side code as strings: this project's type check has no DOM library.
      const atEnd = (await page.evaluate("window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2")) === true;
      if (atEnd && seen.size >= expected.length) break;
      await page.mouse.wheel(0, 600);
      // Wait for the virtual list to render what scrolled in (the next frame), not a fixed time.
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
    }
    await collect();
    expect(expected.filter((op) => !seen.has(op))).toEqual([]);
    expect([...seen].filter((op) => !expected.includes(op))).toEqual([]);
    await page.close();
  });

  it("renders the page, the create endpoint among its operations, with no outside request and no error", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const problems = watchProblems(page);
    page.on("request", (r) => requests.push(r.url()));

    await page.goto(`${gateway.url}/docs`, { waitUntil: "load" });
    const create = page.locator(`.opblock-post .opblock-summary-path[data-path="${CREATE}"]`);
    await create.waitFor({ state: "visible", timeout: 30_000 });
    expect(await create.isVisible()).toBe(true);
    // The operations in view (swagger-ui renders the rest as they scroll in: the test above collects them all).
    expect(await page.locator(".opblock").count()).toBeGreaterThanOrEqual(10);
    expect(await page.locator(".info .title").innerText()).toContain("E-Sign API");
    expect(requests.filter((u) => !u.startsWith(`${gateway.url}/`) && !u.startsWith("data:"))).toEqual([]);
    expect(requests).toContain(`${gateway.url}/openapi.json`);
    expect(problems).toEqual([]);

    const dir = await mkdtemp(path.join(process.env.ESIGN_TEST_DIR ?? os.tmpdir(), "docs-page-"));
    const shot = path.join(dir, "docs-page.png");
    const png = await page.screenshot({ path: shot, type: "png" });
    expect((await stat(shot)).size).toBeGreaterThan(20 * 1024);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    // Against a blank page of the same size: the rendered page has text, colours and structure.
    const blankPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const blank = await pixelStats(blankPage, await blankPage.screenshot({ type: "png" }));
    const rendered = await pixelStats(blankPage, png);
    expect(blank.nonWhite).toBe(0);
    expect({ width: rendered.width, height: rendered.height }).toEqual({ width: 1280, height: 900 });
    expect(rendered.nonWhite / rendered.samples).toBeGreaterThan(0.03);
    expect(rendered.colors).toBeGreaterThan(blank.colors + 10);

    await keepScreenshot(shot, "docs-page.png");
  });
});

import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buildWebapp } from "../../scripts/build-webapp";

/*
 * The web application is a client of the public API through packages/sdk's browser core: its bundle
 * holds no Node module (platform "browser" fails the build on a `node:` import), none of the SDK's
 * Node-only files (the OAuth token manager, file uploads from disk, webhook verification with node:crypto,
 * the Node client),
 * and no gateway code (no private back door).
 */
describe("the web application's bundle", () => {
  let out: string;
  let inputs: string[];
  beforeAll(async () => {
    out = await mkdtemp(path.join(os.tmpdir(), "webapp-bundle-"));
    inputs = await buildWebapp(out);
  }, 60_000);
  afterAll(() => rm(out, { recursive: true, force: true }));

  it("takes the SDK's browser core and nothing of the SDK that needs Node", () => {
    const sdk = inputs.filter((f) => f.startsWith("packages/sdk/src/")).map((f) => path.basename(f));
    expect(sdk).toEqual(expect.arrayContaining(["browser.ts", "api.ts", "users.ts", "api-credentials.ts", "case-files.ts", "subscriptions.ts"]));
    for (const nodeOnly of ["token-manager.ts", "multipart.ts", "webhooks.ts", "client.ts", "index.ts"]) expect(sdk).not.toContain(nodeOnly);
    expect(inputs.filter((f) => f.startsWith("node:") || f.includes("webhook-verify"))).toEqual([]);
  });

  it("contains no gateway code: the application reaches the platform only through the public API", () => {
    expect(inputs.filter((f) => f.startsWith("services/") && !f.startsWith("services/api-gateway/webapp/"))).toEqual([]);
  });

  it("writes the script and the style sheet the gateway serves, and the style sheet needs no inline style", async () => {
    const [js, css] = await Promise.all([readFile(path.join(out, "app.js"), "utf8"), readFile(path.join(out, "app.css"), "utf8")]);
    expect(js.length).toBeGreaterThan(1000);
    expect(css).toContain(".badge");
    // CSP style-src 'self': the script never writes a style attribute (Preact's `style` prop would).
    expect(js).not.toMatch(/\.setAttribute\("style"/);
  });
});

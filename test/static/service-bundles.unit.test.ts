import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { bundleService } from "../../scripts/build-services";

/*
 * What a service loads at start is what it pays at every start (a pod scaled out, a restart, the test
 * suites' ~130 starts a run). The gateway never opens a PDF itself (its inspector processes do) and
 * never seals: @libpdf/core (350-400 ms of CPU to load) must not be in its bundle. It came in through
 * the packages' indexes (@esign/pdf-inspect's inspectPdf, @esign/seal's sealing), so the gateway
 * imports the inspector pool and the verifier from their own modules.
 */
describe("the gateway's bundle", () => {
  let dir: string;
  let code: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "service-bundle-"));
    const file = path.join(dir, "main.cjs");
    await bundleService("api-gateway", file);
    code = await readFile(file, "utf8");
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("does not load @libpdf/core", () => {
    expect(code).toContain("@bull-board");
    expect(code).not.toContain("@libpdf/core");
  });

  it("loads the AWS SDK only when the settings ask for S3 (inside a lazily run module, never at start)", () => {
    const loads = [...code.matchAll(/^(.*)require\("[^"]*@aws-sdk\/client-s3[^"]*"\)/gm)].map((m) => m[1] ?? "");
    expect(loads.length).toBeGreaterThan(0);
    // esbuild writes a top-level load as `var import_x = require(...)` at column 0; a lazy module's
    // load is an indented assignment inside its __esm initializer.
    for (const prefix of loads) expect(prefix).toMatch(/^\s+import_client_s3\d* = $/);
  });
});

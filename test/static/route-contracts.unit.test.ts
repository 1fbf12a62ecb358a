import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expressPath } from "../../services/api-gateway/src/contract/serve";

/*
 * The gateway's shape (services/api-gateway/README.md): floors that read top-down, and every route
 * one contract and one handler.
 *
 * - A file imports only from floors below its own, or from its own folder. Features (floor 3) do not
 *   import each other: what two of them share moves down a floor.
 * - Every handler is registered through `serve(router, contract, ...)`, which takes the method and the
 *   path from the declaration the OpenAPI document and the answer check are built from.
 * - No handler parses its own parameters: `serve` validates params, query, headers and body with the
 *   contract's schemas and hands the handler the parsed values.
 */

const GATEWAY = path.resolve(__dirname, "../../services/api-gateway/src");

/** Bottom to top. `lateral`: units of the floor may import each other. */
const FLOORS: ReadonlyArray<{ units: readonly string[]; lateral: boolean; what: string }> = [
  { units: ["contract"], lateral: false, what: "what a route is: declaration, serve, request validation, answer check" },
  {
    units: ["context.ts", "pdf-inspector.ts", "html", "http"],
    lateral: true,
    what: "what every route may use: the context, the PDF inspector, pages, middleware",
  },
  { units: ["auth", "identity"], lateral: false, what: "who is calling: credentials, identity providers" },
  { units: ["casefiles"], lateral: false, what: "the resource the others build on: case files, their documents and signers" },
  {
    units: [
      "admin",
      "archive",
      "company",
      "contacts",
      "credentials",
      "docs",
      "event-log",
      "folders",
      "jobs",
      "recipients",
      "signers",
      "signing",
      "system",
      "users",
      "verification",
      "webapp",
      "webhooks",
    ],
    lateral: false,
    what: "the features: each its contracts, schemas and handlers",
  },
  { units: ["openapi", "app.ts", "main.ts"], lateral: true, what: "the whole: the document, the app, the process" },
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "browser" ? [] : sources(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const unitOf = (file: string): string => path.relative(GATEWAY, file).split(path.sep)[0] ?? "";
const floorOf = (unit: string): number => FLOORS.findIndex((f) => f.units.includes(unit));

/** The gateway files a source imports (relative specifiers only: packages are below every floor). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from|import|require)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1] ?? "");
  return specifiers.map((s) => path.resolve(path.dirname(file), s)).filter((target) => target.startsWith(GATEWAY));
}

function upwardImports(files: readonly string[], imports: (file: string) => string[] = importsOf): string[] {
  return files.flatMap((file) => {
    const from = unitOf(file);
    const fromFloor = floorOf(from);
    return imports(file).flatMap((target) => {
      const to = unitOf(target.endsWith(".ts") ? target : `${target}.ts`);
      const toUnit = FLOORS.some((f) => f.units.includes(to)) ? to : unitOf(target);
      if (toUnit === from) return [];
      const toFloor = floorOf(toUnit);
      const ok = toFloor < fromFloor || (toFloor === fromFloor && FLOORS[fromFloor]?.lateral === true);
      return ok ? [] : [`${path.relative(GATEWAY, file)} (floor ${fromFloor}) imports ${path.relative(GATEWAY, target)} (floor ${toFloor})`];
    });
  });
}

const REGISTRATION = /\b(router|app|Router\(\))\s*\.\s*(get|post|put|patch|delete|head|options|all|route)\s*\(/;

/** Reading the request's parts directly, or parsing them with a schema: `serve` does that from the contract. */
const OWN_PARSING = /\breq\.(params|query|body)\b|\.(safeParse|parse)(Async)?\(\s*req\b|\bZId\.safeParse\(/;

/**
 * Where reading the raw request is the point, each with why: middleware before the contract, or a
 * body that is not JSON.
 */
const RAW_REQUEST_READERS: Readonly<Record<string, string>> = {
  "http/text-guard.ts": "refuses text PostgreSQL cannot store in any body or query, before every route",
  "auth/token-route.ts": "joins HTTP Basic credentials to the body before the contract validates it, and names the client for the failure limits",
  "auth/oauth-error.ts": "tells an unknown grant_type apart when the contract refused the body",
  "casefiles/create-route.ts": "the multipart create: its rules need the data field and the file parts together (contract: MultipartBody)",
  "verification/read-pdf-upload.ts": "the raw PDF body of POST /verify",
  "auth/visibility.ts":
    "the members' case-file guard runs in the authenticator, before serve parses the params: it reads the one id the path names and leaves anything else to the contract",
  "identity/idp-simulator-route.ts": "the language of the page that answers a request the contract refused",
};

describe("the gateway's shape", () => {
  const files = sources(GATEWAY);

  it("puts every source folder on a floor", () => {
    const units = [...new Set(files.map(unitOf))].filter((u) => floorOf(u) < 0);
    expect(units).toEqual([]);
  });

  it("has no import back up a floor, and no import between features", () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it("catches an import back up a floor or between features (the check itself)", () => {
    const at = (p: string) => path.join(GATEWAY, p);
    const graph: Record<string, string[]> = {
      [at("contract/serve.ts")]: [at("http/request-context")],
      [at("jobs/job-status-route.ts")]: [at("casefiles/casefile-schemas"), at("contract/serve"), at("jobs/job-contracts")],
      [at("webhooks/subscription-router.ts")]: [at("signing/signing-kit")],
      [at("casefiles/penneo-routes.ts")]: [at("webhooks/present-subscription")],
      [at("http/metrics.ts")]: [at("context")],
      [at("app.ts")]: [at("signing/signing-router"), at("main")],
    };
    expect(upwardImports(Object.keys(graph), (f) => graph[f] ?? [])).toEqual([
      "contract/serve.ts (floor 0) imports http/request-context (floor 1)",
      "webhooks/subscription-router.ts (floor 4) imports signing/signing-kit (floor 4)",
      "casefiles/penneo-routes.ts (floor 3) imports webhooks/present-subscription (floor 4)",
    ]);
  });

  it("registers every handler through its contract (serve), never with a path of its own", () => {
    const offenders = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (REGISTRATION.test(line) ? [`${path.relative(GATEWAY, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it("has no handler parse its own parameters, query, headers or body", () => {
    const offenders = files
      .filter((file) => !file.startsWith(path.join(GATEWAY, "contract")) && !(path.relative(GATEWAY, file) in RAW_REQUEST_READERS))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, i) => (OWN_PARSING.test(line) ? [`${path.relative(GATEWAY, file)}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
    expect(OWN_PARSING.test("const id = ZId.safeParse(req.params.id);")).toBe(true);
    expect(OWN_PARSING.test("serve(router, routes.getCaseFile, auth, async ({ params }, _req, res) => {")).toBe(false);
  });

  it("turns the contract's OpenAPI path into express's: every {name} becomes :name, nothing else changes", () => {
    expect(expressPath("/sign/{token}/secure/{method}/start")).toBe("/sign/:token/secure/:method/start");
    expect(expressPath("/api/v3/casefiles/{id}/signers/{signerId}")).toBe("/api/v3/casefiles/:id/signers/:signerId");
    expect(expressPath("/send/api/v1/casefiles/20251022/create")).toBe("/send/api/v1/casefiles/20251022/create");
  });
});

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expressPath } from "../../services/api-gateway/src/http/serve-route";

/*
 * A route's contract lives with its handler (services/api-gateway/src/openapi/README.md): every
 * handler is registered through `serve(router, contract, ...)`, which takes the method and the path
 * from the declaration the OpenAPI document and the answer check are built from. A method and a path
 * written at a registration would be a second, unchecked description of the route.
 */

const GATEWAY = path.resolve(__dirname, "../../services/api-gateway/src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "browser" ? [] : sources(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const REGISTRATION = /\b(router|app|Router\(\))\s*\.\s*(get|post|put|delete|patch|head|options|all|route)\s*\(/;

describe("route contracts", () => {
  it("registers every gateway handler through its contract (serve), never with a path of its own", () => {
    const offenders = sources(GATEWAY).flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (REGISTRATION.test(line) ? [`${path.relative(GATEWAY, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it("turns the contract's OpenAPI path into express's: every {name} becomes :name, nothing else changes", () => {
    expect(expressPath("/sign/{token}/secure/{method}/start")).toBe("/sign/:token/secure/:method/start");
    expect(expressPath("/api/v3/casefiles/{id}/signers/{signerId}")).toBe("/api/v3/casefiles/:id/signers/:signerId");
    expect(expressPath("/send/api/v1/casefiles/20251022/create")).toBe("/send/api/v1/casefiles/20251022/create");
  });
});

import { outputOf } from "./code-health";

// Strict TypeScript is a property of the code base, checked with the tests. By TypeScript's native
// compiler (`tsgo`, @typescript/native-preview): the same checks as tsc 5.9 on the same settings (both
// pass them; `typescript` 5.9 stays for its JavaScript API, test/static/query-conventions.ts), in
// 11 s of wall time on a 2-core machine where tsc took 60-69 s beside the unit tier's other files.
it("type-checks under strict settings", async () => {
  expect(await outputOf("tsgo", ["-p", "tsconfig.json", "--noEmit"])).toBe("");
}, 180_000);

// The web application and what it bundles of the SDK, with the DOM's types and without Node's: a Node
// API reached from the browser's code fails here (services/api-gateway/webapp/tsconfig.json).
it("type-checks the web application for the browser, without Node's types", async () => {
  expect(await outputOf("tsgo", ["-p", "services/api-gateway/webapp/tsconfig.json"])).toBe("");
}, 180_000);

import { outputOf } from "./code-health";

// Strict TypeScript is a property of the code base, checked with the tests.
it("type-checks under strict settings", async () => {
  expect(await outputOf("tsc", ["-p", "tsconfig.json", "--noEmit"])).toBe("");
}, 180_000);

// The web application and what it bundles of the SDK, with the DOM's types and without Node's: a Node
// API reached from the browser's code fails here (services/api-gateway/webapp/tsconfig.json).
it("type-checks the web application for the browser, without Node's types", async () => {
  expect(await outputOf("tsc", ["-p", "services/api-gateway/webapp/tsconfig.json"])).toBe("");
}, 180_000);

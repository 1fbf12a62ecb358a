import { outputOf } from "./code-health";

// Strict TypeScript is a property of the code base, checked with the tests.
it("type-checks under strict settings", async () => {
  expect(await outputOf("tsc", ["-p", "tsconfig.json", "--noEmit"])).toBe("");
}, 180_000);

import { outputOf } from "./code-health";

// The benchmarks have their own project (bench/tsconfig.json): they import across the workspace.
it("type-checks the benchmarks", async () => {
  expect(await outputOf("tsgo", ["-p", "bench/tsconfig.json"])).toBe("");
}, 180_000);

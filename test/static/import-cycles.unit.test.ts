import { outputOf } from "./code-health";

// An acyclic import graph: services never import each other, packages never import a service.
it("has no import cycles", async () => {
  const out = await outputOf("madge", [
    "--circular",
    "--extensions",
    "ts",
    "--ts-config",
    "tsconfig.json",
    "--exclude",
    "generated/",
    "--no-spinner",
    "packages",
    "services",
    "scripts",
  ]);
  // madge writes its verdict to stderr when it is not on a terminal.
  expect(out).toContain("No circular dependency found");
  expect(out).not.toMatch(/Found \d+ circular/);
}, 120_000);

/** One Jest config for the workspace: TypeScript through SWC, real PostgreSQL and Redis per run. */
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/{packages,services,test}/**/test/**/*.test.ts", "<rootDir>/test/**/*.test.ts"],
  transform: { "^.+\\.(t|j)sx?$|^.+\\.mjs$": ["@swc/jest", { jsc: { target: "es2022" }, module: { type: "commonjs" } }] },
  // got 14 and @libpdf/core (dist/*.mjs) are ESM-only: let SWC turn them into CommonJS too.
  transformIgnorePatterns: [],
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  testTimeout: 60000,
};

/**
 * One Jest config for the workspace, TypeScript through SWC, in two tiers (projects):
 * - unit: `*.unit.test.ts`, pure code; neither PostgreSQL nor Redis; run in parallel, first.
 * - integration: every other test, against real PostgreSQL and Redis (a database and a Redis prefix
 *   of its own per run, test/support/global-setup.ts) and real service processes; one file at a time.
 * `pnpm test` runs both (scripts/test.ts), `pnpm test:unit` the first alone.
 * - alone: the integration suites that judge real time closely (the retry ladder's spacing, the webhook
 *   sender's connect and response limits): run by
 *   `pnpm test` after the integration shards, on an otherwise idle machine; on a starved one (five
 *   shards on two cores) a delayed job came 1-2 s late and they failed while every other suite passed.
 * - topology: test/topology, the production topologies under faults (replicas, Redis Cluster and
 *   PgBouncer, PostgreSQL and Redis restarts, the chaos soak); like integration, but only
 *   `pnpm test:topology` runs it, one file at a time on an otherwise idle machine: its suites measure
 *   what survives a fault in a fixed time, which other suites' load would distort.
 * - deploy: test/deploy, the images and their stacks under podman; only `pnpm test:deploy`
 *   (scripts/test-deploy.ts) runs it, after building the images.
 */
const { existsSync, readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

/**
 * pnpm's folders (node_modules/.pnpm/<name@version...>) of the packages that are ES modules
 * ("type": "module"): got 14, @libpdf/core, kysely and the rest that CommonJS cannot require as they
 * are. SWC turns those (and any .mjs file) into CommonJS; every other file of node_modules is loaded
 * as it is. Transforming every file of node_modules cost each shard of a fresh checkout seconds of
 * CPU: the transform cache is keyed by path, so a clean clone starts cold and its shards each
 * transformed the AWS SDK, Prisma and the rest (test/e2e/sdk.test.ts with a cold cache, two runs a
 * side: 24.9 and 28.0 against 21.6 and 21.9 core-seconds).
 */
function esmPackageFolders() {
  const store = path.join(__dirname, "node_modules", ".pnpm");
  if (!existsSync(store)) return [];
  return readdirSync(store).filter((folder) => {
    // The folder's own package: "got@14.6.6" -> got, "@libpdf+core@0.4.2" -> @libpdf/core.
    const at = folder.indexOf("@", folder.startsWith("@") ? 1 : 0);
    if (at <= 0) return false;
    const name = folder.slice(0, at).replace("+", "/");
    try {
      return JSON.parse(readFileSync(path.join(store, folder, "node_modules", name, "package.json"), "utf8")).type === "module";
    } catch {
      return false;
    }
  });
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const ESM_FOLDERS = esmPackageFolders().map(escapeRegExp).join("|");

const common = {
  testEnvironment: "node",
  transform: { "^.+\\.(t|j)sx?$|^.+\\.mjs$": ["@swc/jest", { jsc: { target: "es2022" }, module: { type: "commonjs" } }] },
  // Skipped: a node_modules file outside the ES module packages' folders that is not .mjs.
  transformIgnorePatterns: [`/node_modules/\\.pnpm/(?!(?:${ESM_FOLDERS})/)[^/]+/node_modules/.+(?<!\\.mjs)$`],
};

const ALL = ["<rootDir>/{packages,services,test}/**/test/**/*.test.ts", "<rootDir>/test/**/*.test.ts"];
const DEPLOY = "<rootDir>/test/deploy/";
const TOPOLOGY = "<rootDir>/test/topology/";
const ALONE = [
  "<rootDir>/test/e2e/webhook-delivery-ladder.test.ts",
  // The sender's own limits (200 ms connect with DNS inside it, 1 s response, queued requests' clocks):
  // 5 s of tests that failed on three clean-clone runs' loaded machines, never on their code.
  "<rootDir>/services/webhook-dispatcher/test/send-webhook.test.ts",
  // 2,000 attempts to a receiver in the Jest process, each under the 1 s response limit, with the
  // ladder stretched to 500 s: one recovered attempt timed out by a starved receiver is not retried
  // within the test. Beside four other shards a clean-clone run waited 120 s for the last of them.
  "<rootDir>/test/e2e/webhook-recover.test.ts",
];
const integrationSetup = {
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
};

module.exports = {
  testTimeout: 60000,
  // Slowest first, and shards balanced by running time (scripts/test.ts runs the integration tier in shards).
  testSequencer: "<rootDir>/test/support/sequencer.js",
  projects: [
    { ...common, displayName: "unit", testMatch: ALL.map((p) => p.replace(/\.test\.ts$/, ".unit.test.ts")), testPathIgnorePatterns: [DEPLOY, TOPOLOGY, "/node_modules/"] },
    {
      ...common,
      displayName: "integration",
      testMatch: ALL,
      testPathIgnorePatterns: ["\\.unit\\.test\\.ts$", "/node_modules/", DEPLOY, TOPOLOGY, ...ALONE],
      ...integrationSetup,
    },
    { ...common, displayName: "alone", testMatch: ALONE, ...integrationSetup },
    { ...common, displayName: "topology", testMatch: [`${TOPOLOGY}**/*.test.ts`], ...integrationSetup },
    { ...common, displayName: "deploy", testMatch: [`${DEPLOY}**/*.test.ts`] },
  ],
};

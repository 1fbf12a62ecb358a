// `pnpm build`: bundles each service's TypeScript into one CommonJS file, services/<name>/dist/main.cjs
// (and the PDF inspector's child process into packages/pdf-inspect/dist/inspector-process.cjs), so a
// process starts without compiling TypeScript at run time. Measured on this project's 2-core machine
// (time to /readyz, CPU): the gateway 1.9 s / 2.2 s under tsx, 0.9 s / 1.1 s from the bundle; the
// workers about half too. The test suites start services some two hundred times per run.
//
// What stays outside the bundle: every package from node_modules, required by its absolute path as
// resolved at build time from the file that imports it (pnpm keeps each package's dependencies beside
// it, so no single folder resolves them all). A bundle is therefore tied to the node_modules of the
// checkout that built it: build where it runs (`pnpm start`, the tests and the Dockerfile do).
// Our sources keep their location: `__dirname` and `require.resolve` in them are rewritten to the
// source file's folder, so what a source file finds beside itself is found from the bundle too.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { build, type Plugin } from "esbuild";

const ROOT = path.resolve(__dirname, "..");
export const SERVICES = ["api-gateway", "casefile-worker", "notifier", "webhook-dispatcher"] as const;

/** Where a service's bundle is written, absolute. */
export function bundlePath(service: string): string {
  return path.join(ROOT, "services", service, "dist", "main.cjs");
}

const INSPECTOR_ENTRY = path.join(ROOT, "packages/pdf-inspect/src/inspector-process.ts");
const INSPECTOR_BUNDLE = path.join(ROOT, "packages/pdf-inspect/dist/inspector-process.cjs");

const isOurs = (file: string) => file.startsWith(ROOT) && !file.split(path.sep).includes("node_modules");

const layout: Plugin = {
  name: "esign-layout",
  setup(b) {
    // A bare import that is not one of our workspace packages: left to Node, by absolute path.
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("@esign/") || args.path.startsWith("node:") || args.pluginData === "resolving") return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "resolving" });
      if (r.errors.length > 0) return { errors: r.errors };
      if (r.external || isOurs(r.path)) return undefined;
      return { path: r.path, external: true };
    });
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!isOurs(args.path)) return undefined;
      const here = JSON.stringify(args.path);
      const code = (await readFile(args.path, "utf8"))
        .replace(/\b__dirname\b/g, JSON.stringify(path.dirname(args.path)))
        .replace(/\brequire\.resolve\(/g, `require("node:module").createRequire(${here}).resolve(`);
      return { contents: code, loader: "ts" };
    });
  },
};

function bundle(entry: string, outfile: string): Promise<unknown> {
  return build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    // Stack traces name the TypeScript sources when node runs with --enable-source-maps.
    sourcemap: "linked",
    logLevel: "warning",
    // The gateway's PDF inspector forks the bundled child instead of the TypeScript one.
    define: { "process.env.ESIGN_PDF_INSPECTOR_BUNDLE": JSON.stringify(INSPECTOR_BUNDLE) },
    plugins: [layout],
  });
}

/** Builds every bundle (about half a second). */
export async function buildServices(): Promise<void> {
  await Promise.all([
    ...SERVICES.map((s) => bundle(path.join(ROOT, "services", s, "src", "main.ts"), bundlePath(s))),
    bundle(INSPECTOR_ENTRY, INSPECTOR_BUNDLE),
  ]);
}

if (require.main === module) {
  const started = Date.now();
  buildServices().then(
    () => process.stdout.write(`built ${SERVICES.length} service bundles and the PDF inspector in ${Date.now() - started} ms\n`),
    (err: unknown) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}

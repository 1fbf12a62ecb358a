// `pnpm build`: bundles each service's TypeScript into one CommonJS file, services/<name>/dist/main.cjs
// (the PDF inspector's child process into packages/pdf-inspect/dist/inspector-process.cjs, the migration
// and the admin CLI into scripts/dist/), so a process starts without compiling TypeScript at run time.
// Measured on this project's 2-core machine (time to /readyz, CPU): the gateway 1.9 s / 2.2 s under
// tsx, 0.9 s / 1.1 s from the bundle; the workers about half too. The test suites start services some
// two hundred times per run.
//
// What stays outside a service's bundle: every package from node_modules (the PDF inspector's child
// carries its own inside, see `layout`), required by its path as resolved at
// build time from the file that imports it (pnpm keeps each package's dependencies beside it, so no
// single folder resolves them all), written RELATIVE to the bundle: a bundle moves with the tree it was
// built in (a checkout, or the image's /app). Our sources keep their location the same way: `__dirname`
// in them becomes the source file's folder relative to the bundle, and `require.resolve("x")` is
// resolved at build time into a path relative to the bundle.
//
// `--image <dir>` (docker/Dockerfile) also writes a production tree there: the bundles, the files our
// code reads beside itself (RUNTIME_ASSETS), and only the packages the bundles need at run time (their
// dependency closure: dependencies, optional ones and required peers; no dev dependency, no TypeScript).
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { buildWebapp } from "./build-webapp";

const ROOT = path.resolve(__dirname, "..");
export const SERVICES = ["api-gateway", "casefile-worker", "notifier", "webhook-dispatcher"] as const;

/** Where a service's bundle is written, absolute. */
export function bundlePath(service: string): string {
  return path.join(ROOT, "services", service, "dist", "main.cjs");
}

/** The one-shot scripts a production image runs without tsx: `node scripts/dist/<name>.cjs`. */
export const SCRIPT_BUNDLES = ["migrate", "cli"] as const;
export function scriptBundlePath(name: (typeof SCRIPT_BUNDLES)[number]): string {
  return path.join(ROOT, "scripts", "dist", `${name}.cjs`);
}

const INSPECTOR_ENTRY = path.join(ROOT, "packages/pdf-inspect/src/inspector-process.ts");
const INSPECTOR_BUNDLE = path.join(ROOT, "packages/pdf-inspect/dist/inspector-process.cjs");

/** The PDF inspector's child as bundled (a path from the repository root, as the services' bundles name it). */
export function inspectorBundlePath(): string {
  return relativeFrom(ROOT, INSPECTOR_BUNDLE);
}

/**
 * Files our code reads beside itself at run time (through `__dirname`), which a production tree must
 * carry: the migrations (packages/db/src/migrate.ts), the signing page's script (signing-assets.ts) and
 * the web application's built files (scripts/build-webapp.ts, served by src/webapp/).
 */
export const RUNTIME_ASSETS = ["prisma/migrations", "services/api-gateway/src/signing/browser", "services/api-gateway/dist/webapp"] as const;

const isOurs = (file: string) => file.startsWith(ROOT) && !file.split(path.sep).includes("node_modules");

/** A path relative to `fromDir`, written so that require() and path.join() read it as relative. */
function relativeFrom(fromDir: string, to: string): string {
  const rel = path.relative(fromDir, to).split(path.sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** The root folder of the package a file in node_modules belongs to (…/node_modules/[@scope/]name). */
export function packageRootOf(file: string): string {
  const parts = file.split(path.sep);
  const i = parts.lastIndexOf("node_modules");
  if (i < 0) throw new Error(`${file} is not inside node_modules`);
  const scoped = parts[i + 1]?.startsWith("@");
  return parts.slice(0, i + (scoped ? 3 : 2)).join(path.sep);
}

/**
 * What the bundles need from node_modules at run time, filled while bundling (real paths): packages
 * they require (with their own dependencies), packages whose files are served as they are (a
 * package.json resolved for its folder: pdfjs-dist, swagger-ui-dist; their dependencies are never
 * loaded), and single files (a font resolved by name: its package's other fonts weigh 150 MB).
 */
export interface RuntimeNeeds {
  packages: Set<string>;
  served: Set<string>;
  files: Set<string>;
}

/**
 * `inline`: node_modules packages go into the bundle instead of staying outside it. Only for the PDF
 * inspector's child: it loads no Prisma and no `pg` (which the services' bundles must share with
 * their adapters), and a child is started at every gateway's first upload and after every kill (a
 * bomb, a time-out). Loading @libpdf/core, pkijs and zod from node_modules through Node's ES module
 * loader cost 630-810 ms of CPU a start on the bench machine; one CommonJS file of 3 MB, 270-390 ms.
 */
function layout(outDir: string, needs: RuntimeNeeds, inline = false): Plugin {
  const here = (expr: string) => `require("node:path").join(__dirname, ${JSON.stringify(expr)})`;
  return {
    name: "esign-layout",
    setup(b) {
      // A bare import that is not one of our workspace packages: left to Node, by its relative path.
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (inline || args.path.startsWith("@esign/") || args.path.startsWith("node:") || args.pluginData === "resolving") return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "resolving" });
        if (r.errors.length > 0) return { errors: r.errors };
        if (r.external || isOurs(r.path)) return undefined;
        needs.packages.add(packageRootOf(r.path));
        return { path: relativeFrom(outDir, r.path), external: true };
      });
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!isOurs(args.path)) return undefined;
        const dir = path.dirname(args.path);
        const source = await readFile(args.path, "utf8");
        // `__dirname` first: the paths written for require.resolve below are the bundle's own `__dirname`.
        let code = source.replace(/\b__dirname\b/g, here(relativeFrom(outDir, dir)));
        const resolveFrom = createRequire(args.path);
        code = code.replace(/\brequire\.resolve\(\s*(["'])([^"']+)\1\s*\)/g, (_, _q: string, spec: string) => {
          const file = resolveFrom.resolve(spec);
          if (!isOurs(file)) {
            if (path.basename(file) === "package.json") needs.served.add(packageRootOf(file));
            else needs.files.add(file);
          }
          return here(relativeFrom(outDir, file));
        });
        if (/\brequire\.resolve\(/.test(code)) {
          return {
            errors: [
              { text: `${path.relative(ROOT, args.path)}: require.resolve() with a computed name cannot be resolved at build time; name the file literally` },
            ],
          };
        }
        return { contents: code, loader: "ts" };
      });
    },
  };
}

function bundle(entry: string, outfile: string, needs: RuntimeNeeds, inline = false): Promise<unknown> {
  return build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    // Stack traces name the TypeScript files and lines when node runs with --enable-source-maps; the
    // sources' text stays out of the map (no TypeScript source ships in an image).
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "warning",
    // The gateway's PDF inspector forks the bundled child instead of the TypeScript one (a path from
    // the repository root: packages/pdf-inspect resolves it against its own location).
    define: { "process.env.ESIGN_PDF_INSPECTOR_BUNDLE": JSON.stringify(inspectorBundlePath()) },
    plugins: [layout(path.dirname(outfile), needs, inline)],
  });
}

const noNeeds = (): RuntimeNeeds => ({ packages: new Set(), served: new Set(), files: new Set() });

/** One service's bundle written to `outfile` (a test's own folder); returns what it needs from node_modules at run time. */
export async function bundleService(service: (typeof SERVICES)[number], outfile: string): Promise<RuntimeNeeds> {
  const needs = noNeeds();
  await bundle(path.join(ROOT, "services", service, "src", "main.ts"), outfile, needs);
  return needs;
}

/** Builds every bundle and the web application (about a second); returns what they need from node_modules at run time. */
export async function buildServices(): Promise<RuntimeNeeds> {
  const needs = noNeeds();
  await Promise.all([
    ...SERVICES.map((s) => bundle(path.join(ROOT, "services", s, "src", "main.ts"), bundlePath(s), needs)),
    ...SCRIPT_BUNDLES.map((s) => bundle(path.join(ROOT, "scripts", `${s}.ts`), scriptBundlePath(s), needs)),
    bundle(INSPECTOR_ENTRY, INSPECTOR_BUNDLE, needs, true),
    buildWebapp(),
  ]);
  return needs;
}

interface PackageJson {
  name?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

type DependencyKind = "required" | "optional" | "optional-peer";

/**
 * What a package may load at run time: its dependencies, its optional dependencies where installed,
 * its peers. An optional peer is used only when the application has it anyway: bullmq for
 * @bull-board/api, yes; `prisma` and `typescript` for @prisma/client, build tools, no (that is what
 * keeps dev dependencies out).
 */
function runtimeDependencyNames(pkg: PackageJson): { name: string; kind: DependencyKind }[] {
  const optionalPeer = (n: string) => pkg.peerDependenciesMeta?.[n]?.optional === true;
  return [
    ...Object.keys(pkg.dependencies ?? {}).map((name) => ({ name, kind: "required" as const })),
    ...Object.keys(pkg.optionalDependencies ?? {}).map((name) => ({ name, kind: "optional" as const })),
    ...Object.keys(pkg.peerDependencies ?? {}).map((name) => ({ name, kind: optionalPeer(name) ? ("optional-peer" as const) : ("required" as const) })),
  ];
}

/** Node's lookup of `name` from a package folder: each ancestor's node_modules/<name>, nearest first. */
function lookup(fromPackage: string, name: string): string | undefined {
  let dir = fromPackage;
  for (;;) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir || !parent.startsWith(ROOT)) return undefined;
    dir = parent;
  }
}

/**
 * The run-time closure of `roots` in node_modules: the package folders (real paths) and the symlinks
 * through which they find each other (pnpm's layout: .pnpm/<id>/node_modules/<dep> -> the dep's folder).
 */
export function runtimeClosure(roots: Iterable<string>): { packages: Set<string>; links: Map<string, { target: string; from: string }> } {
  const packages = new Set<string>();
  const links = new Map<string, { target: string; from: string }>();
  const optionalPeers: { found: string; from: string }[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const dir = queue.pop()!;
    if (packages.has(dir)) continue;
    packages.add(dir);
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as PackageJson;
    for (const dep of runtimeDependencyNames(pkg)) {
      const found = lookup(dir, dep.name);
      if (!found) {
        if (dep.kind !== "required") continue;
        throw new Error(`${path.relative(ROOT, dir)} needs ${dep.name}, which is not installed`);
      }
      if (dep.kind === "optional-peer") {
        optionalPeers.push({ found, from: dir });
        continue;
      }
      if (lstatSync(found).isSymbolicLink()) links.set(found, { target: readlinkSync(found), from: dir });
      queue.push(realpathSync(found));
    }
  }
  for (const { found, from } of optionalPeers) {
    if (packages.has(realpathSync(found)) && lstatSync(found).isSymbolicLink()) links.set(found, { target: readlinkSync(found), from });
  }
  return { packages, links };
}

/** TypeScript (sources and declarations): never loaded by Node 20, never shipped. */
const TYPESCRIPT_FILE = /\.(ts|mts|cts|tsx)$/;
/**
 * Prisma's client carries a query compiler per database (4.6 MB each, twice: CommonJS and ESM), and
 * source maps: only PostgreSQL's is ever loaded here. 55 MB less per image.
 */
const NOT_LOADED = [/[\\/]@prisma[\\/]client[\\/]runtime[\\/](query_compiler_\w+_bg\.(sqlite|mysql|sqlserver|cockroachdb)\.|.*\.map$)/];
const shipped = (file: string) => !TYPESCRIPT_FILE.test(file) && !NOT_LOADED.some((re) => re.test(file));
const DOCUMENTATION = /^(package\.json|readme.*|license.*|licence.*|changelog.*|.*\.md)$/i;

/** A package of type declarations only (@types/node, undici-types, type-fest): nothing in it runs. */
function typesOnly(dir: string): boolean {
  const runs = (d: string): boolean =>
    readdirSync(d, { withFileTypes: true }).some((e) =>
      e.isDirectory() ? e.name !== "node_modules" && runs(path.join(d, e.name)) : !DOCUMENTATION.test(e.name) && shipped(e.name),
    );
  return !runs(dir);
}

/** Writes the production tree (see the top of this file) into `out`, emptied first. */
export function writeImageTree(out: string, needs: RuntimeNeeds): { packages: number } {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const copy = (abs: string, filter?: (src: string) => boolean) => {
    const to = path.join(out, path.relative(ROOT, abs));
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(abs, to, { recursive: true, verbatimSymlinks: true, ...(filter ? { filter } : {}) });
  };
  const bundles = [...SERVICES.map(bundlePath), ...SCRIPT_BUNDLES.map(scriptBundlePath), INSPECTOR_BUNDLE];
  for (const b of bundles) for (const f of [b, `${b}.map`]) copy(f);
  for (const asset of RUNTIME_ASSETS) copy(path.join(ROOT, asset));
  for (const file of needs.files) copy(file);
  const { packages, links } = runtimeClosure(needs.packages);
  const shippedPackages = [...new Set([...packages, ...needs.served])].filter((dir) => !typesOnly(dir));
  for (const dir of shippedPackages) {
    // A package's own node_modules (rare under pnpm) is not followed: its contents go along as they are.
    copy(dir, (src) => lstatSync(src).isDirectory() || shipped(src));
  }
  for (const [link, { target, from }] of links) {
    if (!shippedPackages.includes(from) || !shippedPackages.includes(path.resolve(path.dirname(link), target))) continue;
    const to = path.join(out, path.relative(ROOT, link));
    if (existsSync(to)) continue;
    mkdirSync(path.dirname(to), { recursive: true });
    symlinkSync(target, to);
  }
  return { packages: shippedPackages.length };
}

if (require.main === module) {
  const started = Date.now();
  const imageAt = process.argv.indexOf("--image");
  const out = imageAt >= 0 ? process.argv[imageAt + 1] : undefined;
  buildServices().then(
    (needs) => {
      process.stdout.write(`built ${SERVICES.length} service bundles, the PDF inspector and ${SCRIPT_BUNDLES.join(", ")} in ${Date.now() - started} ms\n`);
      if (out) {
        const tree = writeImageTree(path.resolve(out), needs);
        process.stdout.write(`wrote the production tree to ${out}: ${tree.packages} packages\n`);
      }
    },
    (err: unknown) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { BASE_IMAGE } from "../../scripts/deploy/base-image";
import { imageRef } from "../../scripts/deploy/images";
import { imageSize, podman, ROOT, run } from "../../scripts/deploy/podman";
import { DEPLOY_TAG } from "./support/deploy-world";
import { recordFigures } from "./support/figures";

/*
 * What the production image holds, read from the image itself (its files listed by `find` in a
 * container): the bundles, the migrations and the packages they need, and nothing of the build: no
 * TypeScript (sources, declarations, or inside source maps), no dev dependency, no TypeScript tooling;
 * its code owned by root and not writable by the uid 1000 it runs as.
 */

const IMAGE = imageRef(DEPLOY_TAG);
let files: string[];

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
interface ListedDependency {
  path?: string;
  dependencies?: Record<string, ListedDependency>;
}

/** Every package of the workspace's production dependency graph, as pnpm resolves it (optional peers included). */
async function productionGraph(): Promise<Set<string>> {
  const out = await run("pnpm", ["list", "--prod", "--json", "--recursive", "--depth", "Infinity"]);
  const names = new Set<string>();
  const walked = new Set<string>();
  // pnpm prints a package's dependencies once and later occurrences deduped (without them).
  const walk = (deps: Record<string, ListedDependency> | undefined) => {
    for (const [name, d] of Object.entries(deps ?? {})) {
      names.add(name);
      if (!d.dependencies || walked.has(d.path ?? name)) continue;
      walked.add(d.path ?? name);
      walk(d.dependencies);
    }
  };
  for (const project of JSON.parse(out.stdout) as ListedDependency[]) walk(project.dependencies);
  return names;
}

/** What the workspace declares as dev dependencies and nothing in production needs. */
function devOnlyPackages(production: Set<string>): string[] {
  const manifests = [path.join(ROOT, "package.json")];
  for (const dir of ["packages", "services"]) {
    for (const name of readdirSync(path.join(ROOT, dir))) manifests.push(path.join(ROOT, dir, name, "package.json"));
  }
  const pkgs = manifests.map((f) => JSON.parse(readFileSync(f, "utf8")) as PackageJson);
  return [...new Set(pkgs.flatMap((p) => Object.keys(p.devDependencies ?? {})))].filter((n) => !production.has(n) && !n.startsWith("@esign/"));
}

/** `.pnpm/@scope+name@1.2.3_peer...` -> `@scope/name`. */
const packageName = (dir: string) => {
  const scoped = dir.startsWith("@");
  const at = dir.indexOf("@", scoped ? 1 : 0);
  return dir.slice(0, at).replace("+", "/");
};

beforeAll(async () => {
  const out = await podman(["run", "--rm", "--read-only", IMAGE, "find", "/app", "-xdev", "(", "-type", "f", "-o", "-type", "l", ")"]);
  files = out.stdout.split("\n").filter(Boolean);
});

describe("the production image", () => {
  it("holds the bundles, the migrations and the run-time packages", () => {
    for (const f of [
      "/app/services/api-gateway/dist/main.cjs",
      "/app/services/casefile-worker/dist/main.cjs",
      "/app/services/notifier/dist/main.cjs",
      "/app/services/webhook-dispatcher/dist/main.cjs",
      "/app/packages/pdf-inspect/dist/inspector-process.cjs",
      "/app/scripts/dist/migrate.cjs",
      "/app/scripts/dist/cli.cjs",
      "/app/services/api-gateway/src/signing/browser/signing-page.js",
    ]) {
      expect(files).toContain(f);
    }
    expect(files.some((f) => /^\/app\/prisma\/migrations\/\d+_[^/]+\/migration\.sql$/.test(f))).toBe(true);
    expect(files.some((f) => f.includes("/node_modules/.pnpm/bullmq@"))).toBe(true);
  });

  it("has no TypeScript: no .ts/.mts/.cts/.tsx file, no source text in the bundles' source maps", async () => {
    expect(files.filter((f) => /\.(ts|mts|cts|tsx)$/.test(f))).toEqual([]);
    const maps = files.filter((f) => /^\/app\/(services|packages|scripts)\/[^/]+\/?.*\.cjs\.map$/.test(f) && !f.includes("node_modules"));
    expect(maps.length).toBe(7);
    const out = await podman([
      "run",
      "--rm",
      "--read-only",
      IMAGE,
      "node",
      "-e",
      `for (const f of ${JSON.stringify(maps)}) { const m = JSON.parse(require("fs").readFileSync(f, "utf8")); if (m.sourcesContent) console.log(f); }`,
    ]);
    expect(out.stdout.trim()).toBe("");
  });

  it("has no dev dependency and no TypeScript tooling", async () => {
    const installed = new Set(
      files
        .map((f) => /\/node_modules\/\.pnpm\/([^/]+)\//.exec(f)?.[1])
        .filter((d): d is string => d !== undefined)
        .map(packageName),
    );
    expect(installed.size).toBeGreaterThan(50);
    const production = await productionGraph();
    // Nothing outside the production graph at all...
    expect([...installed].filter((n) => !production.has(n))).toEqual([]);
    const devOnly = devOnlyPackages(production);
    expect(devOnly).toEqual(expect.arrayContaining(["tsx", "esbuild", "jest", "@biomejs/biome", "@swc/core", "s3rver", "playwright-core"]));
    expect(devOnly.filter((n) => installed.has(n))).toEqual([]);
    // Build tools reached only as optional peers of run-time packages (prisma and typescript for @prisma/client).
    for (const tool of ["prisma", "typescript", "@prisma/engines", "playwright-core", "@types/node"])
      expect({ [tool]: installed.has(tool) }).toEqual({ [tool]: false });
  });

  it("runs as uid 1000, which cannot change the code", async () => {
    const user = await podman(["image", "inspect", IMAGE, "--format", "{{.Config.User}}"]);
    expect(user.stdout.trim()).toBe("1000:1000");
    // Not even without --read-only: /app belongs to root.
    const write = await podman(["run", "--rm", IMAGE, "sh", "-c", "id -u; touch /app/services/api-gateway/dist/main.cjs 2>&1 || echo refused"]);
    expect(write.stdout.trim().split("\n")).toEqual(["1000", expect.stringContaining("Permission denied"), "refused"]);
  });

  it("records its size and the base image's", async () => {
    const bytes = await imageSize(IMAGE);
    const base = await imageSize(BASE_IMAGE);
    expect(bytes).toBeGreaterThan(base);
    const appBytes = await podman(["run", "--rm", "--read-only", IMAGE, "du", "-sb", "/app"]);
    recordFigures("image", {
      image: IMAGE,
      megabytes: Math.round(bytes / 1e6),
      baseImage: BASE_IMAGE,
      baseMegabytes: Math.round(base / 1e6),
      appMegabytes: Math.round(Number(appBytes.stdout.split("\t")[0]) / 1e6),
      files: files.length,
    });
  });
});

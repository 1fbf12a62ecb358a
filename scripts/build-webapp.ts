// The customer's web application (services/api-gateway/webapp/): Preact pages and the SDK's browser
// core, bundled for the browser into services/api-gateway/dist/webapp/{app.js,app.css}, which the
// gateway serves at /app/assets/ (src/webapp/). No Node module may reach this bundle: platform
// "browser" makes a `node:` import fail the build.
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.resolve(__dirname, "..");
export const WEBAPP_SRC = path.join(ROOT, "services/api-gateway/webapp/src");
export const WEBAPP_DIST = path.join(ROOT, "services/api-gateway/dist/webapp");

/** Builds the application; answers the source files the script bundle took in (relative to the repository). */
export async function buildWebapp(outdir = WEBAPP_DIST): Promise<string[]> {
  const result = await build({
    metafile: true,
    entryPoints: { app: path.join(WEBAPP_SRC, "main.tsx"), "app-style": path.join(WEBAPP_SRC, "app.css") },
    outdir,
    entryNames: "[name]",
    bundle: true,
    platform: "browser",
    format: "esm",
    target: ["chrome110", "firefox110", "safari16"],
    jsx: "automatic",
    jsxImportSource: "preact",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
    // The style sheet is its own entry so it is app.css, not a side product of the script.
    plugins: [
      {
        name: "css-name",
        setup(b) {
          b.onEnd(async (result) => {
            if (result.errors.length > 0) return;
            const { rename } = await import("node:fs/promises");
            await rename(path.join(outdir, "app-style.css"), path.join(outdir, "app.css"));
          });
        },
      },
    ],
  });
  return Object.keys(result.metafile.inputs);
}

if (require.main === module) {
  buildWebapp().then(
    () => process.stdout.write(`built the web application into ${path.relative(ROOT, WEBAPP_DIST)}\n`),
    (err: unknown) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}

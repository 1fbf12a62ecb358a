import path from "node:path";
import { z } from "zod";

export const DOCS_PATH = "/docs";
/** The OpenAPI document the page shows (served by ../openapi/, the floor above). */
export const OPENAPI_DOCUMENT_PATH = "/openapi.json";
export const DOCS_ASSETS_PATH = "/docs/assets";
export const DOCS_INIT_SCRIPT = "docs-init.js";

/** The files of swagger-ui-dist the page loads; nothing else of the package (its petstore demo page) is served. */
export const SWAGGER_UI_FILES = ["swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"] as const;

export const ZDocsAssetParams = z.object({
  file: z.enum([...SWAGGER_UI_FILES, DOCS_INIT_SCRIPT]).describe("A file of the docs page (swagger-ui-dist, served from this gateway)"),
});

/** swagger-ui-dist's folder on disk: the page works offline, no CDN. */
export function swaggerUiDistDir(): string {
  return path.dirname(require.resolve("swagger-ui-dist/package.json"));
}

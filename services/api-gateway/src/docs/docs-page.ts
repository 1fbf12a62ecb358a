import { DOCS_ASSETS_PATH, DOCS_INIT_SCRIPT } from "./docs-assets";

/*
 * The page carries no inline script: its CSP allows scripts from this origin only. swagger-ui sets
 * style attributes, hence 'unsafe-inline' for styles (no script can run from a style).
 */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function docsPageHtml(title: string): string {
  const asset = (file: string) => `${DOCS_ASSETS_PATH}/${file}`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>` +
    `<link rel="stylesheet" href="${asset("swagger-ui.css")}">` +
    `<link rel="icon" type="image/png" href="${asset("favicon-32x32.png")}" sizes="32x32"></head>` +
    `<body><div id="swagger-ui"></div>` +
    `<script src="${asset("swagger-ui-bundle.js")}"></script><script src="${asset(DOCS_INIT_SCRIPT)}"></script>` +
    `</body></html>`
  );
}

/** Served as a file so the page needs no inline script. */
export function docsInitScript(openApiPath: string): string {
  const options = {
    url: openApiPath,
    dom_id: "#swagger-ui",
    deepLinking: true,
    // The default validator badge would call validator.swagger.io: no outside requests from this page.
    validatorUrl: null,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    layout: "BaseLayout",
  };
  return `"use strict";\nwindow.addEventListener("load", function () {\n  var options = ${JSON.stringify(options)};\n  options.presets = [SwaggerUIBundle.presets.apis];\n  window.ui = SwaggerUIBundle(options);\n});\n`;
}

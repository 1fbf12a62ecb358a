import { APP_ASSETS_PATH } from "./webapp-assets";

/*
 * Scripts and styles from this gateway only, no inline script or style at all (the application sets
 * no style attributes), no outside origin: nothing is loaded from a CDN.
 */
export const APP_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
  "frame-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The page: a mount point and the two files; the script renders every screen in the person's language. */
export function appPageHtml(): string {
  const asset = (file: string) => `${APP_ASSETS_PATH}/${file}`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">` +
    `<link rel="icon" href="data:,"><title>E-Sign</title><link rel="stylesheet" href="${asset("app.css")}">` +
    `<script type="module" src="${asset("app.js")}"></script></head>` +
    `<body><div id="app"><noscript>This application needs JavaScript.</noscript></div></body></html>`
  );
}

import { randomBytes } from "node:crypto";
import type { Response } from "express";
import type { TLanguage } from "@esign/i18n";
import { PAGE_STYLE } from "./page-style";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Every value that reaches a page goes through here: names, titles and reasons come from API clients. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

export interface HtmlPage {
  /** `<html lang>`: the language the page is written in. */
  lang: TLanguage;
  title: string;
  /** Already escaped markup. */
  body: string;
  /** Module scripts of this gateway the page loads (no inline script: script-src is 'self' only). */
  scripts?: readonly string[];
  /** Data for the page's script: a JSON data block, never executed. */
  data?: unknown;
  /** Origins besides 'self' that forms may post to (an identity provider). */
  formOrigins?: readonly string[];
}

/** JSON inside a <script> data block: "<" escaped, so no value can close the element. */
const jsonBlock = (data: unknown) => JSON.stringify(data).replace(/</g, "\\u003c");

/**
 * A small server-rendered page. The signing token is in the URL, so pages are never cached, never
 * framed and never send a Referer. Styles run only under this response's nonce; scripts only from
 * this gateway ('self': the signing page's own module and PDF.js with its worker, nothing a client
 * uploads is ever served as a script).
 */
export function sendHtml(res: Response, status: number, page: HtmlPage): void {
  const nonce = randomBytes(16).toString("base64");
  const formAction = ["'self'", ...(page.formOrigins ?? [])].join(" ");
  const scripts = page.scripts ?? [];
  const scriptSrc = scripts.length > 0 ? "'self'" : "'none'";
  res.setHeader(
    "Content-Security-Policy",
    // font-src: PDF.js loads the standard PDF fonts from this gateway for documents that do not embed them.
    `default-src 'none'; style-src 'nonce-${nonce}'; script-src ${scriptSrc}; worker-src ${scriptSrc}; font-src ${scriptSrc}; img-src 'self' data: blob:; ` +
      `connect-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Language", page.lang);
  const data = page.data === undefined ? "" : `<script type="application/json" id="esign-page-data">${jsonBlock(page.data)}</script>`;
  const tags = scripts.map((src) => `<script type="module" src="${escapeHtml(src)}"></script>`).join("");
  res
    .status(status)
    .type("html")
    .send(
      `<!doctype html><html lang="${escapeHtml(page.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>${escapeHtml(page.title)}</title><style nonce="${nonce}">${PAGE_STYLE}</style>${tags}</head>` +
        `<body>${page.body}${data}</body></html>`,
    );
}

export interface PageLink {
  href: string;
  label: string;
}

/** A page with one heading and one message, used for results and refusals. */
export function sendMessagePage(res: Response, status: number, lang: TLanguage, title: string, message: string, link?: PageLink): void {
  const back = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : "";
  sendHtml(res, status, { lang, title, body: `<main id="main"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${back}</main>` });
}

import { randomBytes } from "node:crypto";
import type { Response } from "express";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Every value that reaches a page goes through here: names, titles and reasons come from API clients. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

export interface HtmlPage {
  title: string;
  /** Already escaped markup. */
  body: string;
  /** Inline script (trusted, written here); runs under the page's CSP nonce. */
  script?: string;
  /** Origins besides 'self' that forms may post to (an identity provider). */
  formOrigins?: readonly string[];
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.4rem}section{border:1px solid #ddd;border-radius:6px;padding:1rem;margin:1rem 0}
.banner{background:#fff3cd;border:2px solid #d39e00;padding:.75rem;font-weight:700}
.muted{color:#666}button{padding:.4rem .9rem;margin:.2rem 0}input,textarea{padding:.3rem;max-width:100%}
canvas{border:1px dashed #999;touch-action:none}li{margin:.3rem 0}`;

/**
 * A small server-rendered page. The signing token is in the URL, so pages are never cached, never
 * framed and never send a Referer; scripts and styles run only under this response's nonce.
 */
export function sendHtml(res: Response, status: number, page: HtmlPage): void {
  const nonce = randomBytes(16).toString("base64");
  const formAction = ["'self'", ...(page.formOrigins ?? [])].join(" ");
  res.setHeader(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self' data: blob:; ` +
      `connect-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("X-Content-Type-Options", "nosniff");
  const script = page.script ? `<script nonce="${nonce}">${page.script}</script>` : "";
  res
    .status(status)
    .type("html")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<meta name="referrer" content="no-referrer"><title>${escapeHtml(page.title)}</title><style nonce="${nonce}">${STYLE}</style></head>` +
        `<body>${page.body}${script}</body></html>`,
    );
}

/** A page with one heading and one message, used for results and refusals. */
export function sendMessagePage(res: Response, status: number, title: string, message: string, link?: { href: string; label: string }): void {
  const back = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : "";
  sendHtml(res, status, { title, body: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${back}` });
}

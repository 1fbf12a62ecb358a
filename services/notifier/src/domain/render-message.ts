/**
 * One message described once and rendered twice: as plain text (always, also the alternative part of
 * HTML mail and the e-Boks body) and as a small HTML page. Everything that comes from customers or
 * signers (names, titles, their own texts) is escaped in the HTML; nothing is ever interpreted.
 */
export type Block = { type: "paragraph"; text: string } | { type: "list"; heading: string; items: string[] };

export interface MessageContent {
  language: string;
  subject: string;
  blocks: Block[];
  /** The signing link, as a button in HTML and as a raw URL in both. */
  action?: { label: string; intro: string; url: string };
  /** The open-tracking image (HTML only: a text mail cannot report being opened). */
  trackingPixelUrl?: string;
  footer?: string;
}

/** Subjects are one line: a title with line breaks must not end up as a folded or broken header. */
export function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** A customer's own text: paragraphs are separated by blank lines, line breaks inside are kept. */
export function paragraphsOf(text: string): Block[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/^\n+|\n+$/g, ""))
    .filter((p) => p.trim() !== "")
    .map((p) => ({ type: "paragraph", text: p }));
}

export function renderText(c: MessageContent): string {
  const parts: string[] = [];
  for (const b of c.blocks) {
    if (b.type === "paragraph") parts.push(b.text);
    else parts.push([b.heading, ...b.items.map((i) => `- ${oneLine(i)}`)].join("\n"));
  }
  if (c.action) parts.push(`${c.action.intro}\n${c.action.url}`);
  if (c.footer) parts.push(`--\n${c.footer}`);
  return `${parts.join("\n\n")}\n`;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const FONT = "font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2328;";

export function renderHtml(c: MessageContent): string {
  const body: string[] = [];
  for (const b of c.blocks) {
    if (b.type === "paragraph") {
      body.push(`<p style="margin:0 0 16px;">${escapeHtml(b.text).replace(/\n/g, "<br>")}</p>`);
    } else {
      body.push(`<p style="margin:0 0 4px;">${escapeHtml(b.heading)}</p>`);
      body.push(`<ul style="margin:0 0 16px;padding-left:20px;">${b.items.map((i) => `<li>${escapeHtml(oneLine(i))}</li>`).join("")}</ul>`);
    }
  }
  if (c.action) {
    const href = escapeHtml(c.action.url);
    body.push(
      `<p style="margin:28px 0;"><a href="${href}" style="display:inline-block;padding:12px 24px;background:#1a56db;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:bold;">${escapeHtml(c.action.label)}</a></p>`,
      `<p style="margin:0 0 16px;font-size:13px;color:#57606a;">${escapeHtml(c.action.intro)}<br><a href="${href}" style="color:#1a56db;word-break:break-all;">${href}</a></p>`,
    );
  }
  if (c.footer) body.push(`<p style="margin:24px 0 0;font-size:12px;color:#57606a;">${escapeHtml(c.footer)}</p>`);
  const pixel = c.trackingPixelUrl
    ? `\n<img src="${escapeHtml(c.trackingPixelUrl)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;">`
    : "";
  return [
    "<!DOCTYPE html>",
    `<html lang="${escapeHtml(c.language)}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(c.subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f4f5f7;">`,
    `<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;${FONT}">`,
    ...body,
    `</div>${pixel}`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/**
 * A `Content-Disposition` value for any file name (RFC 6266): an ASCII fallback in `filename` for
 * old clients, the exact name in `filename*` (RFC 8187, UTF-8, percent-encoded). Node refuses a
 * header value outside Latin-1, so a name such as `umowa-ąę.pdf` must never go in raw.
 */
export function contentDisposition(name: string, kind: "inline" | "attachment" = "inline"): string {
  const fallback =
    name
      .normalize("NFKD")
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\%]/g, "_")
      .trim() || "document.pdf";
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

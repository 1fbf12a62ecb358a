const HEADER = Buffer.from("%PDF-");
const TRAILER = Buffer.from("%%EOF");

/**
 * A PDF by content: the `%PDF-` marker within the first KiB (readers tolerate leading bytes there)
 * and `%%EOF` within the last KiB. The declared MIME type is never trusted.
 */
export function looksLikePdf(head: Buffer, tail: Buffer): boolean {
  const h = head.indexOf(HEADER);
  return h >= 0 && h < 1024 && tail.includes(TRAILER);
}

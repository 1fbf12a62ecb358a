import { randomBytes } from "node:crypto";

/**
 * A valid single-page PDF of about `size` bytes, built by hand so that it costs nothing per request:
 * the page's content stream carries a 32-character nonce (a PDF comment) at `nonceOffset`, followed
 * by comment padding. Overwriting the nonce with other hex digits keeps every offset in the xref
 * table valid, so each request can upload a different (differently hashed) but still valid PDF.
 */
export interface NoncePdf {
  bytes: Buffer;
  nonceOffset: number;
  nonceLength: number;
}

export const NONCE_LENGTH = 32;

export function buildPdf(title: string, size: number): NoncePdf {
  const safeTitle = title.replace(/[()\\]/g, "");
  const text = `BT /F1 14 Tf 50 780 Td (${safeTitle}) Tj ET\n`;
  const noncePrefix = "% nonce ";
  const nonceLine = `${noncePrefix}${"0".repeat(NONCE_LENGTH)}\n`;
  const header = "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    null, // the content stream, built below
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  // Fixed overhead (~700 bytes); the rest of `size` is padding inside the content stream.
  const overhead = 700;
  const padBytes = Math.max(0, size - overhead - text.length - nonceLine.length);
  // Random (incompressible, like real scanned documents) comment lines of 100 bytes.
  const filler = randomBytes(Math.ceil(padBytes * 0.76) + 200)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "x");
  const lines: string[] = [];
  for (let i = 0; i + 100 <= padBytes; i += 100) lines.push(`% ${filler.slice(i, i + 97)}\n`);
  const content = text + nonceLine + lines.join("");

  const parts: Buffer[] = [Buffer.from(header, "latin1")];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  let nonceOffset = -1;
  objects.forEach((body, i) => {
    offsets.push(length);
    let chunk: string;
    if (body === null) {
      const prefix = `${i + 1} 0 obj\n<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n`;
      nonceOffset = length + Buffer.byteLength(prefix, "latin1") + text.length + noncePrefix.length;
      chunk = `${prefix}${content}\nendstream\nendobj\n`;
    } else {
      chunk = `${i + 1} 0 obj\n${body}\nendobj\n`;
    }
    const buf = Buffer.from(chunk, "latin1");
    parts.push(buf);
    length += buf.length;
  });
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f ",
    ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n `),
    "trailer",
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    "startxref",
    String(length),
    "%%EOF",
    "",
  ].join("\n");
  parts.push(Buffer.from(xref, "latin1"));
  return { bytes: Buffer.concat(parts), nonceOffset, nonceLength: NONCE_LENGTH };
}

let counter = 0;
/** A fresh 32-hex-digit nonce (unique within the process, random across runs). */
export function nonce(): Buffer {
  counter += 1;
  return Buffer.from(`${randomBytes(8).toString("hex")}${counter.toString(16).padStart(16, "0")}`, "latin1");
}

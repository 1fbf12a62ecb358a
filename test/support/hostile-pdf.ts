import { constants, createDeflate } from "node:zlib";

/*
 * Hostile PDFs for the inspector's bounds (issue 26, item 2), built by hand: a catalog, a page tree
 * and one page, all three inside a FlateDecode object stream, found through an xref stream. The
 * object stream is what LibPDF must inflate to open the file, so what it carries after the three
 * objects (padding, or a huge index) is what opening the file costs.
 */

/** Deflates `parts` (yielded one after the other) without ever holding the inflated whole. */
async function deflateParts(parts: Iterable<Buffer>): Promise<Buffer> {
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  deflate.on("data", (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  for (const part of parts) {
    if (!deflate.write(part)) await new Promise((r) => deflate.once("drain", r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

function* repeated(chunk: Buffer, total: number): Iterable<Buffer> {
  for (let left = total; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
}

const PAGE_OBJECTS = [
  "<< /Type /Catalog /Pages 2 0 R >>",
  "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
];

/** The PDF around an object stream (object 4) holding objects 1-3, and its xref stream (object 5). */
function objectStreamPdf(deflated: Buffer, n: number, first: number, label: string): Buffer {
  const parts: Buffer[] = [Buffer.from(`%PDF-1.7\n%\xE2\xE3\xCF\xD3\n% ${label}\n`, "latin1")];
  const length = () => parts.reduce((s, p) => s + p.length, 0);
  const objStmAt = length();
  parts.push(Buffer.from(`4 0 obj\n<< /Type /ObjStm /N ${n} /First ${first} /Filter /FlateDecode /Length ${deflated.length} >>\nstream\n`));
  parts.push(deflated, Buffer.from("\nendstream\nendobj\n"));
  const xrefAt = length();
  // W [1 4 2]: type, field 2 (offset or object stream number), field 3 (generation or index in the stream).
  const row = (type: number, f2: number, f3: number) => {
    const b = Buffer.alloc(7);
    b.writeUInt8(type, 0);
    b.writeUInt32BE(f2, 1);
    b.writeUInt16BE(f3, 5);
    return b;
  };
  const rows = Buffer.concat([row(0, 0, 65535), row(2, 4, 0), row(2, 4, 1), row(2, 4, 2), row(1, objStmAt, 0), row(1, xrefAt, 0)]);
  parts.push(Buffer.from(`5 0 obj\n<< /Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Length ${rows.length} >>\nstream\n`));
  parts.push(rows, Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/**
 * A valid one-page PDF whose object stream inflates to about `inflatedBytes` (the three objects,
 * then spaces): a few hundred KB on the wire per 100 MB opened, the attack of issue 26, item 2.
 */
export async function makeInflationBombPdf(inflatedBytes: number, label = "bomb"): Promise<Buffer> {
  let body = "";
  const offsets: number[] = [];
  for (const o of PAGE_OBJECTS) {
    offsets.push(body.length);
    body += `${o}\n`;
  }
  const index = `${PAGE_OBJECTS.map((_, i) => `${i + 1} ${offsets[i]}`).join(" ")}\n`;
  const head = Buffer.from(index + body);
  const padding = Math.max(0, inflatedBytes - head.length);
  const deflated = await deflateParts([head, ...repeated(Buffer.alloc(1 << 20, 0x20), padding)]);
  return objectStreamPdf(deflated, PAGE_OBJECTS.length, index.length, label);
}

/**
 * A PDF whose object stream declares `entries` objects (a real index of that many pairs, each
 * naming object 1): small once inflated (8 bytes per entry) but a JavaScript object per entry when
 * LibPDF reads the index: bounded by the inspector's heap, not by its inflation budget.
 */
export async function makeObjectFloodPdf(entries: number, label = "flood"): Promise<Buffer> {
  const pair = Buffer.from("1 0     "); // 8 bytes: object 1 at offset 0, padded
  const indexBytes = entries * pair.length;
  const body = Buffer.from(`${PAGE_OBJECTS[0]}\n`);
  const deflated = await deflateParts([...repeated(Buffer.concat(Array.from({ length: 8192 }, () => pair)), indexBytes), Buffer.from("\n"), body]);
  return objectStreamPdf(deflated, entries, indexBytes + 1, label);
}

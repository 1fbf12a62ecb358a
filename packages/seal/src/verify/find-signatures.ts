/** One signature dictionary's /ByteRange and the CMS bytes in its /Contents gap. */
export interface EmbeddedSignature {
  byteRange: [number, number, number, number];
  cms: Uint8Array;
}

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;

/**
 * Every signature whose /ByteRange points at a well-formed `<hex>` gap in this file, in file order.
 * A regex over the bytes (as latin1) rather than a PDF parse: a verifier must read damaged and
 * tampered files, and the byte range is exactly what the signature claims to cover.
 */
export function findSignatures(bytes: Uint8Array): EmbeddedSignature[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const found: EmbeddedSignature[] = [];
  for (const match of text.matchAll(BYTE_RANGE)) {
    const range = match.slice(1, 5).map(Number) as [number, number, number, number];
    const [start, firstLength, gapEnd, secondLength] = range;
    const gapStart = start + firstLength;
    if (gapEnd <= gapStart || gapEnd + secondLength > bytes.length || gapEnd - gapStart < 2) continue;
    if (text[gapStart] !== "<" || text[gapEnd - 1] !== ">") continue;
    const hex = text.slice(gapStart + 1, gapEnd - 1);
    if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 !== 0) continue;
    found.push({ byteRange: range, cms: Buffer.from(hex, "hex") });
  }
  return found;
}

/** The bytes a signature covers: the file minus the /Contents gap. */
export function signedBytes(bytes: Uint8Array, [start, firstLength, gapEnd, secondLength]: EmbeddedSignature["byteRange"]): Buffer {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Buffer.concat([b.subarray(start, start + firstLength), b.subarray(gapEnd, gapEnd + secondLength)]);
}

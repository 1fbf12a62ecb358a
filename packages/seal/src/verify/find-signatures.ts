/** One signature dictionary's /ByteRange and the CMS bytes in its /Contents gap. */
export interface EmbeddedSignature {
  byteRange: [number, number, number, number];
  cms: Uint8Array;
}

/** A /ByteRange whose gap looks like a signature's; its CMS is decoded only when it is the one checked. */
export interface SignatureRange {
  byteRange: [number, number, number, number];
}

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;

/**
 * Bounds of the search (issue 26, item 1: a 16 MB file with 40 /ByteRange entries pointing at one
 * gap was copied 40 times). Distinct ranges only, at most MAX_RANGES of them; a gap larger than
 * MAX_GAP_CHARS is no signature (a seal's CMS with its timestamp is some 20 KB, 40 K hex digits); and
 * only the signature that is checked has its gap decoded, once.
 */
export const MAX_RANGES = 64;
export const MAX_GAP_CHARS = 2 * 1024 * 1024;

/**
 * Every distinct /ByteRange that points at a `<...>` gap of at most MAX_GAP_CHARS in this file, in
 * file order, at most MAX_RANGES. A regex over the bytes (as latin1) rather than a PDF parse: a
 * verifier must read damaged and tampered files, and the byte range is exactly what the signature
 * claims to cover.
 */
export function findSignatureRanges(bytes: Uint8Array): { ranges: SignatureRange[]; text: string } {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const seen = new Set<string>();
  const ranges: SignatureRange[] = [];
  for (const match of text.matchAll(BYTE_RANGE)) {
    if (ranges.length >= MAX_RANGES) break;
    const range = match.slice(1, 5).map(Number) as [number, number, number, number];
    const key = range.join(" ");
    if (seen.has(key)) continue;
    seen.add(key);
    const [start, firstLength, gapEnd, secondLength] = range;
    const gapStart = start + firstLength;
    if (gapEnd <= gapStart || gapEnd + secondLength > bytes.length || gapEnd - gapStart < 2 || gapEnd - gapStart > MAX_GAP_CHARS) continue;
    if (text[gapStart] !== "<" || text[gapEnd - 1] !== ">") continue;
    ranges.push({ byteRange: range });
  }
  return { ranges, text };
}

/** The CMS in a range's gap, or null when the gap is not an even run of hex digits. */
export function decodeSignature(text: string, range: SignatureRange): EmbeddedSignature | null {
  const [start, firstLength, gapEnd] = range.byteRange;
  const hex = text.slice(start + firstLength + 1, gapEnd - 1);
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 !== 0) return null;
  return { byteRange: range.byteRange, cms: Buffer.from(hex, "hex") };
}

/** Every signature of the file, decoded (bounded as findSignatureRanges is). */
export function findSignatures(bytes: Uint8Array): EmbeddedSignature[] {
  const { ranges, text } = findSignatureRanges(bytes);
  return ranges.map((r) => decodeSignature(text, r)).filter((s): s is EmbeddedSignature => s !== null);
}

/** The bytes a signature covers: the file minus the /Contents gap. */
export function signedBytes(bytes: Uint8Array, [start, firstLength, gapEnd, secondLength]: EmbeddedSignature["byteRange"]): Buffer {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Buffer.concat([b.subarray(start, start + firstLength), b.subarray(gapEnd, gapEnd + secondLength)]);
}

import { MAX_GAP_CHARS, MAX_RANGES, findSignatureRanges, findSignatures } from "../src/verify/find-signatures";
import { inspectSeal } from "../src/verify/verify-sealed-pdf";

/*
 * The public /verify's signature search, bounded (issue 26, item 1): a hostile file with many
 * /ByteRange entries pointing at one large gap was copied once per entry.
 */

/** A "PDF" of `head`, a `<hex>` gap of `gapHexChars`, and `ranges` /ByteRange entries (each `rangeOf(i)`). */
function hostile(gapHexChars: number, ranges: number, rangeOf: (gapStart: number, gapEnd: number, i: number) => string): Buffer {
  const head = Buffer.from("%PDF-1.7\n");
  const gapStart = head.length;
  const gap = Buffer.concat([Buffer.from("<"), Buffer.alloc(gapHexChars, "0"), Buffer.from(">")]);
  const gapEnd = gapStart + gap.length;
  const tailParts: string[] = [];
  for (let i = 0; i < ranges; i++) tailParts.push(rangeOf(gapStart, gapEnd, i));
  const tail = Buffer.from(`\n${tailParts.join("\n")}\n%%EOF\n`);
  // The second part of each range covers the tail up to the end of the file.
  const file = Buffer.concat([head, gap, tail]);
  return Buffer.from(file.toString("latin1").replaceAll("TAIL", String(tail.length).padStart(8, "0")), "latin1");
}

describe("findSignatureRanges", () => {
  it("keeps one entry per distinct range: 40 entries at one gap are one signature, decoded once", () => {
    const file = hostile(20_000, 40, (s, e) => `/ByteRange [0 ${s} ${e} TAIL]`);
    const { ranges } = findSignatureRanges(file);
    expect(ranges).toHaveLength(1);
    expect(findSignatures(file)).toHaveLength(1);
  });

  it("ignores a gap larger than MAX_GAP_CHARS (no seal is that large)", () => {
    const file = hostile(MAX_GAP_CHARS + 2, 3, (s, e) => `/ByteRange [0 ${s} ${e} TAIL]`);
    expect(findSignatureRanges(file).ranges).toEqual([]);
  });

  it("looks at no more than MAX_RANGES distinct ranges", () => {
    // Distinct ranges that all start at 0 and point at the gap through different first lengths.
    const file = hostile(2_000, MAX_RANGES * 4, (s, e, i) => `/ByteRange [${i} ${s - i} ${e} TAIL]`);
    expect(findSignatureRanges(file).ranges.length).toBeLessThanOrEqual(MAX_RANGES);
  });

  it("answers an unsigned verdict for the hostile file without throwing", async () => {
    const file = hostile(20_000, 40, (s, e) => `/ByteRange [0 ${s} ${e} TAIL]`);
    const { report, check } = await inspectSeal(file);
    expect(report.signatureCount).toBe(1);
    expect(check?.signatureValid ?? false).toBe(false);
  });
});

import { pooledRandomBytes } from "../src/random-pool";

// The pool behind signing tokens and IVs: each draw its own bytes, never shared with another draw.
describe("pooledRandomBytes", () => {
  it("gives each draw bytes of its own, across many refills of the pool", () => {
    const seen = new Set<string>();
    // 12-byte draws (an IV) over ~60 refills of the 4 KiB pool: a repeat of 96 random bits means bytes handed out twice.
    for (let i = 0; i < 20_000; i++) seen.add(pooledRandomBytes(12).toString("hex"));
    expect(seen.size).toBe(20_000);
  });

  it("hands back a Buffer the caller owns: changing it changes no later draw", () => {
    const a = pooledRandomBytes(32);
    a.fill(0);
    const b = pooledRandomBytes(32);
    expect(b.equals(Buffer.alloc(32))).toBe(false);
    expect(b.buffer === a.buffer && b.byteOffset === a.byteOffset).toBe(false);
  });

  it("serves a draw larger than what is left of the pool from a fresh fill, and any size up to the pool's", () => {
    for (const n of [0, 1, 12, 32, 4000, 4096, 33]) expect(pooledRandomBytes(n).length).toBe(n);
    // Not all zero (the pool is wiped where it was handed out; a draw must come from a fill, not the wipe).
    expect(pooledRandomBytes(4096).some((byte) => byte !== 0)).toBe(true);
  });

  it("refuses sizes it cannot serve", () => {
    expect(() => pooledRandomBytes(4097)).toThrow(RangeError);
    expect(() => pooledRandomBytes(-1)).toThrow(RangeError);
    expect(() => pooledRandomBytes(1.5)).toThrow(RangeError);
  });
});

import { LADDER_DELAYS_MS, MAX_ATTEMPTS, retryDelayMs } from "../src/ladder";

const S = 1000;
const H = 3600 * S;

describe("retry ladder", () => {
  it("starts at once, then 5, 10, 15, 20, 25 s, then 30 retries one hour apart", () => {
    expect(retryDelayMs(0, 1)).toBe(0);
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, 1))).toEqual([5 * S, 10 * S, 15 * S, 20 * S, 25 * S]);
    for (let n = 6; n <= 35; n++) expect(retryDelayMs(n, 1)).toBe(H);
    expect(LADDER_DELAYS_MS).toHaveLength(35);
  });

  it("is exhausted after the 36th failed attempt (the 35th retry)", () => {
    expect(MAX_ATTEMPTS).toBe(36);
    expect(retryDelayMs(35, 1)).toBe(H);
    expect(retryDelayMs(36, 1)).toBeNull();
    expect(retryDelayMs(100, 1)).toBeNull();
    // Walking the ladder: 36 attempts in all, 35 of them retries.
    let attempts = 1;
    for (let failed = 1; retryDelayMs(failed, 1) !== null; failed++) attempts++;
    expect(attempts).toBe(36);
  });

  it("multiplies every delay by the scale, rounded to whole milliseconds", () => {
    expect(retryDelayMs(1, 0.001)).toBe(5);
    expect(retryDelayMs(5, 0.001)).toBe(25);
    expect(retryDelayMs(6, 0.001)).toBe(3600);
    expect(retryDelayMs(3, 0.5)).toBe(7500);
    expect(retryDelayMs(6, 0.5 / 3600)).toBe(500);
    expect(retryDelayMs(36, 0.001)).toBeNull();
  });

  it("rejects nonsense input", () => {
    expect(() => retryDelayMs(-1, 1)).toThrow(RangeError);
    expect(() => retryDelayMs(1.5, 1)).toThrow(RangeError);
    expect(() => retryDelayMs(1, 0)).toThrow(RangeError);
    expect(() => retryDelayMs(1, Number.NaN)).toThrow(RangeError);
  });
});

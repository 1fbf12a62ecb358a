import { pairedRatios, spreadOf, variantsOf, withinNoise } from "../../bench/support/ab";

// `pnpm bench:ab` judges one tree against another by the rounds' paired ratios (bench/ab-create.ts).

describe("bench:ab's arms and figures", () => {
  it("reads --variant as this checkout again with settings, a value keeping its own '='", () => {
    expect(variantsOf("nb:PDF_INSPECT_BORROW_MS=0|semi:NODE_OPTIONS=--max-semi-space-size=64,A=1", "/repo", "abc123")).toEqual([
      { dir: "/repo", label: "abc123:nb", env: { PDF_INSPECT_BORROW_MS: "0" } },
      { dir: "/repo", label: "abc123:semi", env: { NODE_OPTIONS: "--max-semi-space-size=64", A: "1" } },
    ]);
    expect(variantsOf(undefined, "/repo", "abc123")).toEqual([]);
    for (const bad of ["nb", "nb:", ":A=1", "nb:=1", "nb:A"]) expect(() => variantsOf(bad, "/repo", "abc123")).toThrow(/expected name:KEY=VALUE/);
  });

  it("pairs each round with the base's same round, and calls a ratio within noise only when its q1-q3 includes 1", () => {
    // The machine drifts (round 2 is slow for both): the paired ratio stays put where unpaired medians would not.
    const base = [4, 8, 4, 4, 4];
    const tree = [4.4, 8.8, 4.4, 4.4, 4.4];
    const ratios = pairedRatios(tree, base);
    expect(ratios.map((r) => Math.round(r * 100) / 100)).toEqual([1.1, 1.1, 1.1, 1.1, 1.1]);
    expect(withinNoise(spreadOf(ratios))).toBe(false);
    expect(withinNoise(spreadOf([0.9, 0.95, 1.02, 1.05, 1.1]))).toBe(true);
    expect(spreadOf([3, 1, 2, 5, 4])).toEqual({ median: 3, q1: 2, q3: 4, min: 1, max: 5 });
    expect(() => pairedRatios([1, 2], [1])).toThrow(/as many rounds/);
    expect(() => spreadOf([])).toThrow(/no figures/);
  });
});

import { parsePressure, pressurePercent } from "../../bench/support/proc";

// The bench reports how much of each scenario the machine was stalled (bench/support/proc.ts).
describe("bench: pressure stall figures", () => {
  it("reads the total of each line of a /proc/pressure file", () => {
    const io = "some avg10=4.92 avg60=5.72 avg300=7.15 total=63890512\nfull avg10=3.74 avg60=4.67 avg300=5.94 total=53583628\n";
    expect(parsePressure(io)).toEqual({ some: 63890512, full: 53583628 });
    // Older kernels have no "full" line for cpu; an empty file has neither.
    expect(parsePressure("some avg10=0.00 avg60=0.00 avg300=0.00 total=160722544\n")).toEqual({ some: 160722544 });
    expect(parsePressure("")).toEqual({});
  });

  it("turns two readings into the share of the wall time stalled", () => {
    const before = { cpuSome: 1_000_000, ioSome: 2_000_000, ioFull: 500_000 };
    const after = { cpuSome: 1_250_000, ioSome: 3_000_000, ioFull: 500_000 };
    // Over 10 s: 0.25 s, 1 s and 0 s stalled.
    expect(pressurePercent(before, after, 10_000)).toEqual({ cpuSome: 2.5, ioSome: 10, ioFull: 0 });
  });
});

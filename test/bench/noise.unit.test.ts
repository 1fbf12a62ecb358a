import {
  BASELINE_SPREAD_LIMIT,
  FOREIGN_CPU_LIMIT_PERCENT,
  IO_STALL_LIMIT_PERCENT,
  foreignCpuPercent,
  judge,
  relativeSpread,
  spreadReason,
} from "../../bench/support/noise";
import { CONNECTIONS, countDelta, parseCommandStats, parseRedisReading, READS, type CountSnapshot } from "../../bench/support/round-trips";

// A scenario's verdict is only given when the machine was the bench's (bench/support/noise.ts).
describe("bench: reliability of a scenario's verdict", () => {
  it("calls a scenario unreliable, saying why, past each limit, and reliable below them", () => {
    const quiet = { cpuSome: 80, ioSome: 1, ioFull: 0 };
    expect(judge(FOREIGN_CPU_LIMIT_PERCENT, quiet)).toMatchObject({ reliable: true, reasons: [] });
    expect(judge(FOREIGN_CPU_LIMIT_PERCENT + 0.1, quiet).reasons).toEqual([expect.stringContaining("other work used")]);
    expect(judge(0, { ...quiet, ioSome: IO_STALL_LIMIT_PERCENT + 1 }).reasons).toEqual([expect.stringContaining("I/O stalled")]);
    // CPU pressure alone is the bench's own saturation, not a sign.
    expect(judge(0, { ...quiet, cpuSome: 100 }).reliable).toBe(true);
    expect(judge(0, quiet, ["the baseline disagreed"])).toMatchObject({ reliable: false, reasons: ["the baseline disagreed"] });
  });

  it("measures a baseline's spread relative to its median; a failed repeat is an infinite spread", () => {
    expect(relativeSpread([100, 110, 120])).toBe(0.18);
    expect(relativeSpread([100])).toBe(0);
    expect(relativeSpread([100, Infinity, 100])).toBe(Infinity);
    expect(spreadReason("rate", [100, 110, 120])).toEqual([]);
    expect(spreadReason("rate", [100, 100 * (1 + 2 * BASELINE_SPREAD_LIMIT)])).toEqual([expect.stringContaining("rate spread")]);
  });

  it("takes the bench's own CPU off the machine's busy time", () => {
    // 100 ticks of 10 ms = 1,000 ms of core time; 400 ms busy, 300 ms of it the bench's: 10% foreign.
    expect(foreignCpuPercent({ busy: 0, total: 0 }, { busy: 40, total: 100 }, 300)).toBe(10);
    expect(foreignCpuPercent({ busy: 0, total: 0 }, { busy: 40, total: 100 }, 500)).toBe(0);
  });
});

describe("bench: round trips", () => {
  it("reads INFO commandstats", () => {
    const info =
      "# Commandstats\r\ncmdstat_evalsha:calls=12,usec=300,usec_per_call=25.00,rejected_calls=0,failed_calls=0\r\ncmdstat_client|setname:calls=3,usec=3\r\n";
    expect(parseCommandStats(info)).toEqual({ evalsha: 12, "client|setname": 3 });
    const stats = "# Stats\r\ntotal_connections_received:41\r\ntotal_commands_processed:900\r\ntotal_reads_processed:700\r\n";
    expect(parseRedisReading(stats + info)).toEqual({ evalsha: 12, "client|setname": 3, [READS]: 700, [CONNECTIONS]: 41 });
    expect(() => parseRedisReading(info)).toThrow("total_reads_processed");
  });

  it("counts from one reading's start to the next one's end, per item, leaving the bench's INFO out", () => {
    const at = (t: number, rt: number, redis: Record<string, number>) => ({ at: t, sql: { gw: { roundTrips: rt, transactions: rt / 2 } }, redis });
    const a: CountSnapshot = {
      end: at(0, 10, { evalsha: 5, info: 1, [READS]: 20, [CONNECTIONS]: 4 }),
      start: at(1, 14, { evalsha: 6, info: 2, [READS]: 22, [CONNECTIONS]: 5 }),
    };
    const b: CountSnapshot = {
      end: at(11, 34, { evalsha: 26, xadd: 10, info: 9, [READS]: 54, [CONNECTIONS]: 7 }),
      start: at(12, 40, { evalsha: 30, info: 10, [READS]: 57, [CONNECTIONS]: 8 }),
    };
    const d = countDelta(a, b, 10);
    expect(d.sql).toEqual({ gw: { roundTrips: 2, transactions: 1 }, total: { roundTrips: 2, transactions: 1 } });
    // Reads 54 - 22 = 32, less the bench's 7 INFO calls and 2 connections of its own: 23, per item 2.3.
    expect(d.redis).toEqual({ total: 3, scripts: 2, reads: 2.3, byCommand: { evalsha: 2, xadd: 1 } });
    expect(d.wallMs).toBe(10);
  });
});

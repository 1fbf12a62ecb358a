import type { Reliability } from "../support/noise";
import type { PressureTotals } from "../support/proc";
import type { Percentiles } from "../support/stats";
import type { BenchRun } from "../support/world";

export interface BenchContext {
  run: BenchRun;
  /** Shorter steps (development of the bench itself); full runs never set it. */
  quick: boolean;
  /** How many times each measured step runs (--repeats, default 3); targets are judged on the median. */
  repeats: number;
  /** Services to run under --cpu-prof (profiles land in profDir). */
  profile: Set<string>;
  profDir: string;
  log(message: string): void;
}

/** One target of the issue, printed as pass/short with its figure. */
export interface Check {
  id: string;
  label: string;
  figure: number;
  unit: string;
  target: string;
  pass: boolean;
  note?: string;
}

/** A latency distribution to chart (milliseconds). */
export interface ChartSeries {
  group: string;
  label: string;
  latency: Percentiles;
}

export interface ScenarioResult {
  id: string;
  title: string;
  /** How the scenario and its baseline were run, for the summary. */
  method: string[];
  checks: Check[];
  chart: ChartSeries[];
  /** Everything measured, for the JSON file. */
  data: Record<string, unknown>;
  notes: string[];
  /** Tables for the summary (figures that are no latency distribution: counts, stage timings). */
  tables?: ReportTable[];
  wallMs: number;
  /** Percent of the scenario's wall time the machine was stalled (Linux PSI; set by run.ts). */
  stalls?: PressureTotals;
  /** Why the baseline's own repeats make the scenario unreliable (support/noise.ts limits); empty: they agree. */
  baselineNoise?: string[];
  /** Whether the machine was quiet enough to judge the targets (set by run.ts, support/noise.ts). */
  reliability?: Reliability;
}

export interface ReportTable {
  title: string;
  head: string[];
  rows: (string | number)[][];
}

export type Scenario = (ctx: BenchContext) => Promise<ScenarioResult>;

export function check(id: string, label: string, figure: number, unit: string, target: string, pass: boolean, note?: string): Check {
  return { id, label, figure: Number.isFinite(figure) ? Math.round(figure * 100) / 100 : figure, unit, target, pass, note };
}

import { scrapeAll, scrapeMetrics } from "./metrics-scrape";
import type { BenchProcess } from "./services";

export interface TypedSqlRow {
  statement: string;
  compiles: number;
  ms: number;
}

/** The typed SQL figures by statement in a /metrics text (`esign_typed_sql_compiles`, `esign_typed_sql_compile_seconds`), costliest first. */
export function typedSqlRowsIn(text: string): TypedSqlRow[] {
  const read = (metric: string) =>
    new Map([...text.matchAll(new RegExp(`^${metric}\\{[^}]*statement="([^"]+)"[^}]*\\}\\s+(\\S+)$`, "gm"))].map((m) => [m[1]!, Number(m[2])]));
  const compiles = read("esign_typed_sql_compiles");
  return [...read("esign_typed_sql_compile_seconds")]
    .map(([statement, seconds]) => ({ statement, compiles: compiles.get(statement) ?? 0, ms: seconds * 1000 }))
    .sort((a, b) => b.ms - a.ms);
}

/** Seconds spent building and compiling typed SQL since start, all statements, from a /metrics text (undefined: none answered). */
export function typedSqlSecondsIn(text: string | undefined): number | undefined {
  return text === undefined ? undefined : typedSqlRowsIn(text).reduce((sum, r) => sum + r.ms / 1000, 0);
}

/**
 * A service's typed SQL figures by statement since it started, costliest first; undefined for a
 * process that answers no such figures (a baseline). Read outside the CPU windows: a scrape costs the service CPU.
 */
export async function typedSqlByStatement(proc: BenchProcess, metricsToken: string): Promise<TypedSqlRow[] | undefined> {
  const text = await scrapeMetrics(proc, metricsToken).catch(() => undefined);
  return text === undefined ? undefined : typedSqlRowsIn(text);
}

/** Each process's seconds of typed SQL so far, in the order given. */
export async function typedSqlSecondsOf(procs: readonly BenchProcess[], metricsToken: string): Promise<(number | undefined)[]> {
  return (await scrapeAll(procs, metricsToken)).map(typedSqlSecondsIn);
}

/**
 * Per process, the share of its CPU during a step that went to typed SQL (percent), from the figures
 * before and after the step and its CPU milliseconds in between.
 */
export function typedSqlShares(
  procs: readonly BenchProcess[],
  before: readonly (number | undefined)[],
  after: readonly (number | undefined)[],
  cpuUsedMs: readonly number[],
): Record<string, { compileMs: number; cpuMs: number; percent: number }> {
  const out: Record<string, { compileMs: number; cpuMs: number; percent: number }> = {};
  procs.forEach((p, i) => {
    const b = before[i];
    const a = after[i];
    const cpu = cpuUsedMs[i] ?? 0;
    if (b === undefined || a === undefined || cpu <= 0) return;
    const compileMs = (a - b) * 1000;
    out[p.name] = { compileMs: Math.round(compileMs * 10) / 10, cpuMs: Math.round(cpu), percent: Math.round((compileMs / cpu) * 1000) / 10 };
  });
  return out;
}

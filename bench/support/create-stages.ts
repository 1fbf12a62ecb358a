import { EVENT_LOOP_SAMPLE_MS } from "@esign/runtime";
import { scrapeMetrics } from "./metrics-scrape";
import type { BenchProcess } from "./services";

/*
 * The gateway's create stages (`esign_create_stage_seconds{stage}`, services/api-gateway/src/casefiles/
 * create-stages.ts) and its event-loop delay (prom-client's `nodejs_eventloop_lag_p99_seconds`, whose
 * histogram restarts at every scrape) around a step: mean milliseconds per stage per request, and the
 * loop's p99 delay over the step (past the 100 ms sampling interval, which Node's histogram includes). Scraped outside the step's CPU window: a scrape costs the gateway CPU.
 */

export const CREATE_STAGES = ["auth", "limits", "multipart", "inspect", "validate", "storage", "database", "enqueue"] as const;

export interface StageReading {
  sums: Record<string, number>;
  counts: Record<string, number>;
  loopLagP99Ms: number;
}

export async function readStages(proc: BenchProcess, metricsToken: string): Promise<StageReading | undefined> {
  try {
    const text = await scrapeMetrics(proc, metricsToken);
    if (text === undefined) return undefined;
    const sums: Record<string, number> = {};
    const counts: Record<string, number> = {};
    for (const m of text.matchAll(/^esign_create_stage_seconds_(sum|count)\{([^}]*)\}\s+(\S+)$/gm)) {
      const stage = /stage="([^"]+)"/.exec(m[2]!)?.[1];
      if (!stage) continue;
      (m[1] === "sum" ? sums : counts)[stage] = Number(m[3]);
    }
    const lag = /^nodejs_eventloop_lag_p99_seconds(?:\{[^}]*\})?\s+(\S+)$/m.exec(text);
    // Node's histogram counts the sampling interval itself (a loop that never stalls reads ~100 ms): the delay is the rest.
    return { sums, counts, loopLagP99Ms: lag ? Math.max(0, Math.round((Number(lag[1]) * 1e3 - EVENT_LOOP_SAMPLE_MS) * 10) / 10) : Number.NaN };
  } catch {
    return undefined;
  }
}

/** Mean ms per request in each stage between two readings, and the loop's p99 delay over the second one. */
export function stageMeans(before: StageReading, after: StageReading): { meanMs: Record<string, number>; loopLagP99Ms: number } {
  const meanMs: Record<string, number> = {};
  for (const stage of CREATE_STAGES) {
    const n = (after.counts[stage] ?? 0) - (before.counts[stage] ?? 0);
    if (n > 0) meanMs[stage] = Math.round((((after.sums[stage] ?? 0) - (before.sums[stage] ?? 0)) / n) * 1e5) / 100;
  }
  return { meanMs, loopLagP99Ms: after.loopLagP99Ms };
}

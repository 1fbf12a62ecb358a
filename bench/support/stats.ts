/** Latency statistics: exact percentiles over the recorded samples (runs are bounded, so all are kept). */

export interface Percentiles {
  count: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
}

export const EMPTY_PERCENTILES: Percentiles = { count: 0, min: NaN, p50: NaN, p90: NaN, p99: NaN, p999: NaN, max: NaN, mean: NaN };

/** Nearest-rank percentile of an ascending array (q in 0..1). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export function percentiles(samples: ArrayLike<number>): Percentiles {
  if (samples.length === 0) return { ...EMPTY_PERCENTILES };
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  const r = (v: number) => Math.round(v * 100) / 100;
  return {
    count: sorted.length,
    min: r(sorted[0] as number),
    p50: r(quantile(sorted, 0.5)),
    p90: r(quantile(sorted, 0.9)),
    p99: r(quantile(sorted, 0.99)),
    p999: r(quantile(sorted, 0.999)),
    max: r(sorted[sorted.length - 1] as number),
    mean: r(sum / sorted.length),
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export const round = (v: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes of one machine. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

import type { Metric, Registry } from "prom-client";

interface Series {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative); the last slot is past every bound (+Inf). */
  counts: Float64Array;
  sum: number;
  count: number;
}

interface ValuePair {
  value: number;
  labels: Record<string, string | number>;
  /** The series' own labels, written after `labels` and the registry's defaults, as prom-client does. */
  sharedLabels: Record<string, string>;
  metricName: string;
}

/**
 * A histogram whose label sets are bound once (`bind`), each to its own counters: an observation is
 * a bucket search and three additions. prom-client's Histogram validates and hashes the labels on
 * every `observe` and keys its buckets by each bound's decimal text; eight observations per create
 * (the create stage clocks) were ~50 us of the gateway's CPU per create (bench/README.md, round 8).
 * It registers in a prom-client registry and is written on /metrics exactly as prom-client writes a
 * histogram: `_bucket{le}` cumulative, `le="+Inf"`, `_sum`, `_count`, with the registry's default
 * labels.
 */
export class BoundHistogram<L extends string> {
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly series = new Map<string, Series>();
  private readonly upperBounds: readonly number[];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    buckets: readonly number[],
    registry: Registry,
  ) {
    this.upperBounds = [...buckets].sort((a, b) => a - b);
    registry.registerMetric(this as unknown as Metric);
  }

  /** The observer of one label set (its series exists from now on, at zero). */
  bind(labels: Record<L, string>): (seconds: number) => void {
    const key = this.labelNames.map((n) => labels[n]).join("\u0000");
    let series = this.series.get(key);
    if (!series) {
      series = { labels: { ...labels }, counts: new Float64Array(this.upperBounds.length + 1), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    const s = series;
    const bounds = this.upperBounds;
    return (value: number) => {
      if (!Number.isFinite(value)) return;
      let i = 0;
      while (i < bounds.length && value > bounds[i]!) i++;
      s.counts[i]! += 1;
      s.sum += value;
      s.count += 1;
    };
  }

  /** What the registry writes (prom-client's metric interface). */
  async get(): Promise<{ name: string; help: string; type: "histogram"; aggregator: "sum"; values: ValuePair[] }> {
    const values: ValuePair[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((le, i) => {
        cumulative += s.counts[i]!;
        values.push({ value: cumulative, labels: { le }, sharedLabels: s.labels, metricName: `${this.name}_bucket` });
      });
      values.push({ value: s.count, labels: { le: "+Inf" }, sharedLabels: s.labels, metricName: `${this.name}_bucket` });
      values.push({ value: s.sum, labels: {}, sharedLabels: s.labels, metricName: `${this.name}_sum` });
      values.push({ value: s.count, labels: {}, sharedLabels: s.labels, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    for (const s of this.series.values()) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}

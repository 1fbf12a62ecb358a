import type { Gauge, Registry } from "prom-client";
import { cachedRead } from "./cached-read";
import { gauge, metricsRegistry } from "./registry";

export interface ScrapedGaugeOptions {
  /** How long a value read is reused (default 1 s). */
  ttlMs?: number;
  registry?: Registry;
  /** Told about a failed read; the scrape itself still succeeds. */
  onError?: (err: unknown) => void;
}

/**
 * A gauge whose value is read when metrics are scraped (a row count, say), not kept up to date by
 * the code. A failed read reports NaN ("unknown") instead of failing the whole scrape or repeating
 * a stale value.
 */
export function scrapedGauge(spec: { name: string; help: string }, read: () => Promise<number>, opts: ScrapedGaugeOptions = {}): Gauge {
  const cached = cachedRead(read, opts.ttlMs ?? 1000);
  return gauge(
    {
      ...spec,
      async collect() {
        try {
          this.set(await cached());
        } catch (err) {
          this.set(Number.NaN);
          opts.onError?.(err);
        }
      },
    },
    opts.registry ?? metricsRegistry(),
  );
}

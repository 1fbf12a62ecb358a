import type { BenchProcess } from "./services";

/**
 * A service's /metrics text (the bench's METRICS_TOKEN), or undefined when it answers none (a baseline,
 * a service without the token). Rejects only when the request itself fails. Scrape outside a step's
 * CPU window: a scrape costs the service CPU.
 */
export async function scrapeMetrics(proc: BenchProcess, metricsToken: string): Promise<string | undefined> {
  const res = await fetch(`${proc.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  return res.ok ? res.text() : undefined;
}

/** Each process's /metrics text, in the order given; undefined for one that answers none or cannot be reached. */
export function scrapeAll(procs: readonly BenchProcess[], metricsToken: string): Promise<(string | undefined)[]> {
  return Promise.all(procs.map((p) => scrapeMetrics(p, metricsToken).catch(() => undefined)));
}

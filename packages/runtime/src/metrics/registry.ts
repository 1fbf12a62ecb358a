import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { BoundHistogram } from "./bound-histogram";

let processRegistry: Registry | undefined;

/**
 * The process's registry, the one `GET /metrics` serves. One per process like the logger: metrics
 * are process state by nature (a replica reports its own), and domain code can declare a counter
 * next to what it counts without a registry being passed through every call.
 */
export function metricsRegistry(): Registry {
  processRegistry ??= new Registry();
  return processRegistry;
}

// Node's default metrics register under these names; the first one tells whether they are there.
const DEFAULT_METRIC_PROBE = "process_cpu_user_seconds_total";
// Node's loop-delay histogram records the time between two samples, this interval included: a loop
// that never stalls reads ~100 ms; readers of nodejs_eventloop_lag_* subtract it (the bench does).
export const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * Labels every metric of the registry with `service` and adds Node's default metrics (CPU, memory,
 * event loop lag, GC, handles). runService calls it once at boot; default labels are applied when
 * metrics are written, so metrics declared before (at import time) get the label too.
 */
export function initServiceMetrics(service: string, registry: Registry = metricsRegistry()): Registry {
  registry.setDefaultLabels({ service });
  // The event-loop-lag histogram samples on a libuv timer: prom-client's default 10 ms woke every
  // idle service 100 times a second, ~0.9% of a core for nothing (strace of an idle dispatcher;
  // bench/README.md). Sampled every 100 ms, a stall still shows in the lag percentiles.
  if (!registry.getSingleMetric(DEFAULT_METRIC_PROBE)) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return registry;
}

export interface MetricSpec<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
}

type MetricClass<M> = abstract new (...args: never[]) => M;

// Declaring the same metric twice (a module loaded twice, two workers in one process) returns the
// first one instead of throwing; a name reused for another kind of metric is a bug and throws.
function existing<M>(registry: Registry, name: string, kind: MetricClass<M>): M | undefined {
  const found = registry.getSingleMetric(name);
  if (found === undefined) return undefined;
  if (!(found instanceof kind)) throw new Error(`metric ${name} is already registered as another type`);
  return found as M;
}

export function counter<L extends string = never>(spec: MetricSpec<L>, registry: Registry = metricsRegistry()): Counter<L> {
  return (
    existing<Counter<L>>(registry, spec.name, Counter) ??
    new Counter<L>({ name: spec.name, help: spec.help, labelNames: spec.labelNames ?? [], registers: [registry] })
  );
}

export function gauge<L extends string = never>(
  spec: MetricSpec<L> & { collect?: (this: Gauge<L>) => void | Promise<void> },
  registry: Registry = metricsRegistry(),
): Gauge<L> {
  return (
    existing<Gauge<L>>(registry, spec.name, Gauge) ??
    new Gauge<L>({ name: spec.name, help: spec.help, labelNames: spec.labelNames ?? [], registers: [registry], collect: spec.collect })
  );
}

export function histogram<L extends string = never>(spec: MetricSpec<L> & { buckets: number[] }, registry: Registry = metricsRegistry()): Histogram<L> {
  return (
    existing<Histogram<L>>(registry, spec.name, Histogram) ??
    new Histogram<L>({ name: spec.name, help: spec.help, labelNames: spec.labelNames ?? [], buckets: spec.buckets, registers: [registry] })
  );
}

/**
 * A histogram for hot paths whose label sets are known up front: `bind` each once, then observing
 * costs a bucket search (bound-histogram.ts). Written on /metrics like `histogram`'s.
 */
export function boundHistogram<L extends string>(
  spec: MetricSpec<L> & { labelNames: readonly L[]; buckets: number[] },
  registry: Registry = metricsRegistry(),
): BoundHistogram<L> {
  return (
    existing<BoundHistogram<L>>(registry, spec.name, BoundHistogram) ?? new BoundHistogram<L>(spec.name, spec.help, spec.labelNames, spec.buckets, registry)
  );
}

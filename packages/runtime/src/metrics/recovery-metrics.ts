import type { Registry } from "prom-client";
import { counter, gauge, histogram, metricsRegistry } from "./registry";

/** One recovery: a dependency answered again and `seconds` later the backlog it held up was empty. */
export interface RecoveryMetricSample {
  dependency: string;
  backlog: string;
  seconds: number;
  requeued: number;
}

/** What packages/queue's recovery paths report to (its RecoveryMetrics hook); see recoveryMetrics(). */
export interface RecoveryMetricsRecorder {
  recovered(sample: RecoveryMetricSample): void;
  backlogSize(backlog: string, size: number): void;
}

export const RECOVERY_METRIC_NAMES = {
  seconds: "esign_recovery_seconds",
  last: "esign_recovery_last_seconds",
  requeued: "esign_recovery_requeued_total",
  backlog: "esign_recovery_backlog",
} as const;

// From a few milliseconds (nothing was missed) to a minute (a sweep paging through a long outage).
const RECOVERY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];

const perRegistry = new WeakMap<Registry, RecoveryMetricsRecorder>();

/**
 * Recovery times of one process: how long after PostgreSQL or Redis answered again each backlog it
 * held up (creates stored but not enqueued, the outbox, the sweeps) was empty. The histogram keeps
 * every recovery, the gauge the last one (what a dashboard shows next to an outage).
 */
export function recoveryMetrics(registry: Registry = metricsRegistry()): RecoveryMetricsRecorder {
  const known = perRegistry.get(registry);
  if (known) return known;
  const labels = ["dependency", "backlog"] as const;
  const seconds = histogram(
    {
      name: RECOVERY_METRIC_NAMES.seconds,
      help: "Time from a dependency answering again to the backlog it held up being empty",
      labelNames: labels,
      buckets: RECOVERY_BUCKETS,
    },
    registry,
  );
  const last = gauge(
    { name: RECOVERY_METRIC_NAMES.last, help: "The last recovery's time from a dependency answering again to an empty backlog", labelNames: labels },
    registry,
  );
  const requeued = counter(
    { name: RECOVERY_METRIC_NAMES.requeued, help: "Items enqueued or relayed while catching up after a dependency answered again", labelNames: labels },
    registry,
  );
  const backlog = gauge(
    {
      name: RECOVERY_METRIC_NAMES.backlog,
      help: "Items waiting for a dependency to answer again (e.g. creates stored but not enqueued)",
      labelNames: ["backlog"] as const,
    },
    registry,
  );

  const recorder: RecoveryMetricsRecorder = {
    recovered(sample) {
      const l = { dependency: sample.dependency, backlog: sample.backlog };
      seconds.observe(l, sample.seconds);
      last.set(l, sample.seconds);
      requeued.inc(l, sample.requeued);
    },
    backlogSize(name, size) {
      backlog.set({ backlog: name }, size);
    },
  };
  perRegistry.set(registry, recorder);
  return recorder;
}

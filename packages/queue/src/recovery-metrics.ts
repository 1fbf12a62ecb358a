import type { Dependency } from "@esign/errors";

/** One recovery: a dependency answered again, and `seconds` later the backlog it held up was empty. */
export interface RecoverySample {
  dependency: Dependency;
  /** What was caught up: `create_enqueues`, `casefile_sweep`, `outbox`, `webhook_sweep`. */
  backlog: string;
  seconds: number;
  /** Items enqueued (or relayed) on the way. */
  requeued: number;
}

/**
 * What the recovery paths report, as an interface of its own so this package needs no metrics
 * library: packages/runtime's recoveryMetrics() implements it.
 */
export interface RecoveryMetrics {
  recovered(sample: RecoverySample): void;
  /** Items a backlog holds now (e.g. creates stored but not yet enqueued). */
  backlogSize(backlog: string, size: number): void;
}

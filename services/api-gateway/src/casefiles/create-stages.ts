import type { Response } from "express";
import { boundHistogram } from "@esign/runtime";

/**
 * Where a create request's time goes, by stage, on /metrics (`esign_create_stage_seconds{stage}`):
 * the benchmark reads its sums and counts before and after a step (bench/README.md, "Create stages").
 * Stages, in order: `auth` (arrival to past authentication: routing, the token check), `limits` (the
 * per-customer rate limit, a Redis round trip), `multipart` (reading, hashing and staging the
 * upload), `inspect` (opening every PDF in the inspector processes, their queue included),
 * `validate` (the payload rules, the payload hash, and the idempotency and folder reads when asked
 * for), `storage` (committing the staged files), `database` (the creation job's row),
 * `enqueue` (the BullMQ job). A stage a request does not reach is not observed. Costs one
 * performance.now() and one observation per stage, on a series bound once per stage (through
 * prom-client's own histogram the eight cost ~50 us per create, bench/README.md round 8).
 */
const stageSeconds = boundHistogram({
  name: "esign_create_stage_seconds",
  help: "Time a create request spent in each stage (auth, limits, multipart, inspect, validate, storage, database, enqueue)",
  labelNames: ["stage"],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
});

const STAGES = ["auth", "limits", "multipart", "inspect", "validate", "storage", "database", "enqueue"] as const;
export type CreateStage = (typeof STAGES)[number];

const observers = Object.fromEntries(STAGES.map((stage) => [stage, stageSeconds.bind({ stage })])) as Record<CreateStage, (seconds: number) => void>;

/** Ends `stage` now: observes the time since the previous stage ended, or since arrival (`res.locals.receivedAt`, set by httpMetrics). */
export function stageDone(res: Response, stage: CreateStage): void {
  const locals = res.locals as { receivedAt?: unknown; createStageAt?: number };
  const now = performance.now();
  const since = locals.createStageAt ?? (typeof locals.receivedAt === "number" ? locals.receivedAt : now);
  observers[stage]((now - since) / 1000);
  locals.createStageAt = now;
}

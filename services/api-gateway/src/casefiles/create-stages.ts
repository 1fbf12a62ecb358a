import type { Response } from "express";
import { histogram } from "@esign/runtime";

/**
 * Where a create request's time goes, by stage, on /metrics (`esign_create_stage_seconds{stage}`):
 * the benchmark reads its sums and counts before and after a step (bench/README.md, "Create stages").
 * Stages, in order: `auth` (arrival to past authentication: routing, the token check), `limits` (the
 * per-customer rate limit, a Redis round trip), `multipart` (reading, hashing and staging the
 * upload), `inspect` (opening every PDF in the inspector processes, their queue included),
 * `validate` (the payload rules, the payload hash, and the idempotency and folder reads when asked
 * for), `storage` (committing the staged files), `database` (the creation job's row),
 * `enqueue` (the BullMQ job). A stage a request does not reach is not observed. Costs one
 * performance.now() and one histogram observation per stage.
 */
const stageSeconds = histogram({
  name: "esign_create_stage_seconds",
  help: "Time a create request spent in each stage (auth, limits, multipart, inspect, validate, storage, database, enqueue)",
  labelNames: ["stage"],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
});

export type CreateStage = "auth" | "limits" | "multipart" | "inspect" | "validate" | "storage" | "database" | "enqueue";

const CLOCK = Symbol("createStageClock");
type Located = Response & { [CLOCK]?: { last: number } };

/** Starts the request's clock at its arrival (`res.locals.receivedAt`, set by httpMetrics), else now. */
function clockOf(res: Response): { last: number } {
  const located = res as Located;
  if (!located[CLOCK]) {
    const received = res.locals.receivedAt;
    located[CLOCK] = { last: typeof received === "number" ? received : performance.now() };
  }
  return located[CLOCK];
}

/** Ends `stage` now: observes the time since the previous stage ended (or since arrival). */
export function stageDone(res: Response, stage: CreateStage): void {
  const clock = clockOf(res);
  const now = performance.now();
  stageSeconds.observe({ stage }, (now - clock.last) / 1000);
  clock.last = now;
}

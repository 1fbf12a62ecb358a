import type { WorkerContext } from "../context";
import { sweepPending } from "../domain/sweep-pending";

/** Work untouched this long is taken for lost by the periodic sweep (in flight work is younger). */
const STALE_MS = 30_000;

/** casefile/requeue-pending (every 15 s): the periodic sweep; see sweepPending. */
export async function requeuePendingJob(ctx: WorkerContext): Promise<void> {
  await sweepPending(ctx, STALE_MS);
}

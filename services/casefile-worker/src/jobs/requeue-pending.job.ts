import type { WorkerContext } from "../context";
import { scheduleSend } from "../domain/schedule-send";
import { sweepLifecycle } from "../domain/sweep-lifecycle";

const STALE_MS = 30_000;

/**
 * The safety net behind "nothing accepted is lost": a creation job stored while Redis was away, a
 * case file whose send job vanished, or a lifecycle step (expiry, activation, advance, finalization)
 * whose job was lost is found in PostgreSQL (the system of record) and enqueued again. Job ids are
 * derived from the rows, so this never creates duplicates.
 */
export async function requeuePendingJob(ctx: WorkerContext): Promise<void> {
  const stale = await ctx.db.creationJob.findMany({
    where: { status: { in: ["pending", "processing"] }, updatedAt: { lt: new Date(Date.now() - STALE_MS) } },
    select: { id: true },
    take: 500,
  });
  const queue = ctx.producer.queue("casefile");
  for (const { id } of stale) {
    const existing = await queue.getJob(id);
    if (!existing) {
      await ctx.producer.enqueue("casefile", "create", { creationJobId: id }, { jobId: id });
      ctx.logger.info("re-enqueued a creation job found only in PostgreSQL", { jobId: id });
    } else if (await existing.isFailed()) {
      await ctx.db.creationJob.updateMany({
        where: { id, status: { in: ["pending", "processing"] } },
        data: { status: "failed", errorMessage: existing.failedReason || "The creation job failed" },
      });
    }
  }
  const due = await ctx.db.caseFile.findMany({
    where: { status: 0, activate: true, sendAt: { lte: new Date(Date.now() - STALE_MS) } },
    select: { id: true, sendAt: true },
    take: 500,
  });
  for (const cf of due) if (cf.sendAt) await scheduleSend(ctx, cf.id, cf.sendAt);
  await sweepLifecycle(ctx, STALE_MS);
}

import type { WorkerContext } from "../context";
import { scheduleSend } from "./schedule-send";
import { sweepLifecycle } from "./sweep-lifecycle";

const PAGE = 500;

/**
 * Creation jobs PostgreSQL holds as pending or processing, untouched for `graceMs`, that have no
 * BullMQ job: stored while Redis was away (or lost with it), so enqueued again under their own id.
 * One whose BullMQ job failed for good (its last attempt could not record the failure) is marked
 * failed. Pages through all of them by id; the job lookups of a page go to Redis together.
 */
async function sweepCreationJobs(ctx: WorkerContext, cutoff: Date): Promise<number> {
  const queue = ctx.producer.queue("casefile");
  let requeued = 0;
  let after: string | undefined;
  for (;;) {
    const page = await ctx.db.creationJob.findMany({
      where: { status: { in: ["pending", "processing"] }, updatedAt: { lt: cutoff }, ...(after ? { id: { gt: after } } : {}) },
      select: { id: true },
      orderBy: { id: "asc" },
      take: PAGE,
    });
    const outcomes = await Promise.all(
      page.map(async ({ id }) => {
        const existing = await queue.getJob(id);
        if (!existing) {
          await ctx.producer.enqueue("casefile", "create", { creationJobId: id }, { jobId: id });
          ctx.logger.info("re-enqueued a creation job found only in PostgreSQL", { jobId: id });
          return "requeued";
        }
        if (await existing.isFailed()) {
          await ctx.db.creationJob.updateMany({
            where: { id, status: { in: ["pending", "processing"] } },
            data: { status: "failed", errorMessage: existing.failedReason || "The creation job failed" },
          });
        }
        return "queued";
      }),
    );
    requeued += outcomes.filter((o) => o === "requeued").length;
    if (page.length < PAGE) return requeued;
    after = page[page.length - 1]!.id;
  }
}

/**
 * The safety net behind "nothing accepted is lost": a creation job stored while Redis was away, a
 * case file whose send job vanished, or a lifecycle step (expiry, activation, advance, finalization)
 * whose job was lost is found in PostgreSQL (the system of record) and enqueued again, once it is
 * overdue by `graceMs`. Job ids are derived from the rows and every job is idempotent, so this never
 * creates duplicates: the periodic sweep waits 30 s, the one run when Redis answers again waits for
 * nothing. Returns how many jobs it enqueued.
 */
export async function sweepPending(ctx: WorkerContext, graceMs: number, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - graceMs);
  let requeued = await sweepCreationJobs(ctx, cutoff);
  const due = await ctx.db.caseFile.findMany({
    where: { status: 0, activate: true, sendAt: { lte: cutoff } },
    select: { id: true, sendAt: true },
    take: PAGE,
  });
  // scheduleSend is a no-op for a send job that exists; counted as owed, not as added.
  for (const cf of due) if (cf.sendAt) await scheduleSend(ctx, cf.id, cf.sendAt);
  requeued += await sweepLifecycle(ctx, graceMs, now);
  return requeued;
}

import type { GatewayContext } from "../context";

/**
 * Hands a stored creation job to the casefile worker. The row is committed first, so a Redis that is
 * away costs latency, never the job: the enqueue is kept and made again as soon as Redis answers
 * (ctx.enqueueBacklog), and the worker's sweeps, which read PostgreSQL, stay the net behind that.
 * The job id is the creation job's id, so the two together enqueue it once.
 */
export async function enqueueCreationJob(ctx: GatewayContext, creationJobId: string): Promise<void> {
  const outcome = await ctx.enqueueBacklog.enqueue("casefile", "create", { creationJobId }, { jobId: creationJobId });
  if (outcome === "deferred") ctx.logger.warn("create job stored but not enqueued; enqueued again once Redis answers", { jobId: creationJobId });
}

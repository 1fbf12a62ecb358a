import type { JobData, JobNames } from "@esign/schema";
import { run } from "@esign/db";
import type { WorkerContext } from "../context";
import { overdueCaseFileExpiriesSql, overdueSignerExpiriesSql, stuckPendingCaseFilesSql, unfinalizedCaseFilesSql } from "./casefile-queries.sql";
import { enqueueAt, jobIds } from "./casefile-jobs";

const BATCH = 500;

/**
 * Makes sure a job the database says is owed exists and will run. BullMQ ignores an add under an id
 * it still holds, so a finished (or given-up) job under that id is removed first: the database, the
 * system of record, says its work is not done. Jobs waiting, delayed or running are left alone.
 */
async function ensureJob<N extends JobNames<"casefile">>(
  ctx: WorkerContext,
  name: N,
  data: JobData<"casefile", N>,
  jobId: string,
  at?: Date,
): Promise<boolean> {
  const existing = await ctx.producer.queue("casefile").getJob(jobId);
  if (existing) {
    const state = await existing.getState();
    if (state !== "completed" && state !== "failed") return false;
    try {
      await existing.remove();
    } catch (err) {
      // Picked up again in the meantime (a retry): it is running, which is all the sweep wants.
      ctx.logger.info("owed job could not be replaced; left as it is", { jobId, err });
      return false;
    }
  }
  await enqueueAt(ctx, name, data, jobId, at);
  return true;
}

/**
 * The lifecycle's safety net, run by the requeue sweeper. Timing itself is done by delayed jobs; this
 * only finds work that is overdue by more than `graceMs` - a delayed job lost with Redis, a follow-up
 * job that never got enqueued after its commit - and enqueues it again. Each query looks at overdue
 * rows only, so the cost does not grow with the number of case files that are merely waiting.
 * Returns how many jobs it enqueued.
 */
export async function sweepLifecycle(ctx: WorkerContext, graceMs: number, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - graceMs);
  const log = ctx.logger.child({ sweep: "lifecycle" });
  const requeued: string[] = [];

  // Case files past expireAt and still out for signing (or activated and waiting for sendAt).
  const expired = await run(ctx.db, overdueCaseFileExpiriesSql, { cutoff, limit: BATCH });
  for (const cf of expired) {
    if (cf.expireAt && (await ensureJob(ctx, "expire", { caseFileId: cf.id }, jobIds.expire(cf.id, cf.expireAt)))) requeued.push(`expire ${cf.id}`);
  }

  // Signers past their expireAt who have not signed and are not marked expired yet.
  const signers = await run(ctx.db, overdueSignerExpiriesSql, { cutoff, limit: BATCH });
  for (const s of signers) {
    if (s.expireAt && (await ensureJob(ctx, "expire-signer", { signerId: s.id }, jobIds.expireSigner(s.id, s.expireAt))))
      requeued.push(`expire-signer ${s.id}`);
  }

  // Pending case files that advance would change: everyone has signed, or a signer of the current
  // round could be active and is not (its activation, or the previous round's advance, went missing).
  // A signature or deletion within the grace period still has its own advance on the way.
  const stuck = await run(ctx.db, stuckPendingCaseFilesSql, { cutoff, now, limit: BATCH });
  for (const cf of stuck) {
    if (await ensureJob(ctx, "advance", { caseFileId: cf.id }, jobIds.advanceSweep(cf.id))) requeued.push(`advance ${cf.id}`);
  }

  // Signed case files whose finalization is not running, queued or done.
  const unfinalized = await run(ctx.db, unfinalizedCaseFilesSql, { cutoff, limit: BATCH });
  for (const cf of unfinalized) {
    if (await ensureJob(ctx, "finalize", { caseFileId: cf.id }, jobIds.finalize(cf.id))) requeued.push(`finalize ${cf.id}`);
  }

  if (requeued.length > 0) log.warn("re-enqueued overdue lifecycle jobs found only in PostgreSQL", { jobs: requeued });
  return requeued.length;
}

import type { WorkerContext } from "../context";
import { purgeRecycleBin } from "../domain/purge-recycle-bin";

/**
 * Deletes job records past their retention (their case files stay: the reference is set null),
 * refresh tokens a day past their expiry (kept that long so that a late reuse of a spent token
 * still finds its row and revokes its family), and case files whose time in the recycle bin is over.
 */
export async function purgeJobsJob(ctx: WorkerContext): Promise<void> {
  const cutoff = new Date(Date.now() - ctx.config.JOB_RETENTION_DAYS * 24 * 3600 * 1000);
  const { count } = await ctx.db.creationJob.deleteMany({ where: { createdAt: { lt: cutoff } } });
  if (count > 0) ctx.logger.info("purged creation job records", { count, cutoff: cutoff.toISOString() });
  const expired = await ctx.db.refreshToken.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - 24 * 3600 * 1000) } } });
  if (expired.count > 0) ctx.logger.info("purged expired refresh tokens", { count: expired.count });
  await purgeRecycleBin(ctx);
}

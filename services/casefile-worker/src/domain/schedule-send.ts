import type { WorkerContext } from "../context";

export const sendJobId = (caseFileId: number) => `send-${caseFileId}`;

/**
 * Makes sure a case file scheduled for later has its delayed send job. Safe to call repeatedly: the
 * job id is derived from the case file, so BullMQ keeps one job however often this runs.
 */
export async function ensureSendScheduled(ctx: WorkerContext, creationJobId: string): Promise<void> {
  const cf = await ctx.db.caseFile.findUnique({ where: { creationJobId }, select: { id: true, status: true, activate: true, sendAt: true } });
  if (!cf || cf.status !== 0 || !cf.activate || !cf.sendAt) return;
  await scheduleSend(ctx, cf.id, cf.sendAt);
}

export async function scheduleSend(ctx: WorkerContext, caseFileId: number, sendAt: Date): Promise<void> {
  const delay = Math.max(0, sendAt.getTime() - Date.now());
  await ctx.producer.enqueue("casefile", "send", { caseFileId }, { jobId: sendJobId(caseFileId), delay });
}

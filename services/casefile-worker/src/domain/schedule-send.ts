import type { WorkerContext } from "../context";
import { scheduleCaseFileTimers } from "./schedule-timers";

export const sendJobId = (caseFileId: number) => `send-${caseFileId}`;

/**
 * Makes sure a freshly created case file has its delayed jobs: the send job when it waits for sendAt,
 * and the lifecycle timers (expiry, later activations). Safe to call repeatedly: job ids are derived
 * from the case file, so BullMQ keeps one job however often this runs.
 */
export async function ensureCreatedScheduled(ctx: WorkerContext, creationJobId: string): Promise<void> {
  const cf = await ctx.db.caseFile.findUnique({ where: { creationJobId }, select: { id: true, status: true, activate: true, sendAt: true } });
  if (!cf) return;
  if (cf.status === 0 && cf.activate && cf.sendAt) await scheduleSend(ctx, cf.id, cf.sendAt);
  await scheduleCaseFileTimers(ctx, cf.id);
}

export async function scheduleSend(ctx: WorkerContext, caseFileId: number, sendAt: Date): Promise<void> {
  const delay = Math.max(0, sendAt.getTime() - Date.now());
  await ctx.producer.enqueue("casefile", "send", { caseFileId }, { jobId: sendJobId(caseFileId), delay });
}

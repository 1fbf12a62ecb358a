import { sendJobId } from "@esign/schema";
import type { WorkerContext } from "../context";
import { casefileJobAt, enqueueAt } from "./casefile-jobs";
import { scheduleCaseFileTimers, type TimerSnapshot } from "./schedule-timers";

/** A case file as its creation committed it: what its delayed jobs depend on. */
export interface CreatedSnapshot extends TimerSnapshot {
  caseFile: TimerSnapshot["caseFile"] & { sendAt: Date | null };
}

/**
 * Makes sure a freshly created case file has its delayed jobs: the send job when it waits for sendAt,
 * and the lifecycle timers (expiry, later activations). Safe to call repeatedly: job ids are derived
 * from the case file, so BullMQ keeps one job however often this runs. `created` is the state the
 * creating transaction committed; without it (a re-run of a completed job) the state is read back.
 */
export async function ensureCreatedScheduled(ctx: WorkerContext, creationJobId: string, created?: CreatedSnapshot): Promise<void> {
  const cf =
    created?.caseFile ??
    (await ctx.db.caseFile.findUnique({ where: { creationJobId }, select: { id: true, status: true, activate: true, sendAt: true, expireAt: true } }));
  if (!cf) return;
  // The send at sendAt and the timers in one pipeline.
  const send = cf.status === 0 && cf.activate && cf.sendAt ? [casefileJobAt("send", { caseFileId: cf.id }, sendJobId(cf.id), cf.sendAt)] : [];
  await scheduleCaseFileTimers(ctx, cf.id, new Date(), created, send);
}

export async function scheduleSend(ctx: WorkerContext, caseFileId: number, sendAt: Date): Promise<void> {
  await enqueueAt(ctx, "send", { caseFileId }, sendJobId(caseFileId), sendAt);
}

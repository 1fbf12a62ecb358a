import { sendJobId } from "@esign/schema";
import type { WorkerContext } from "../context";
import { casefileJobAt, enqueueAt } from "./casefile-jobs";
import type { JobRequest } from "@esign/queue";
import { scheduleCaseFileTimers, timerJobsOf, type TimerSnapshot } from "./schedule-timers";

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
  await scheduleCaseFileTimers(ctx, cf.id, new Date(), created, sendJobOf(cf));
}

/** The send job a case file waiting for its sendAt needs (none otherwise). */
function sendJobOf(cf: CreatedSnapshot["caseFile"]): JobRequest[] {
  return cf.status === 0 && cf.activate && cf.sendAt ? [casefileJobAt("send", { caseFileId: cf.id }, sendJobId(cf.id), cf.sendAt)] : [];
}

/**
 * The delayed jobs of a case file just created, from the state its creation committed: what
 * ensureCreatedScheduled adds, for a caller that adds them in a pipeline of its own (the creation
 * job's, with its events).
 */
export function createdJobsOf(created: CreatedSnapshot, now: Date = new Date()): JobRequest[] {
  return [...sendJobOf(created.caseFile), ...timerJobsOf(created, now)];
}

export async function scheduleSend(ctx: WorkerContext, caseFileId: number, sendAt: Date): Promise<void> {
  await enqueueAt(ctx, "send", { caseFileId }, sendJobId(caseFileId), sendAt);
}

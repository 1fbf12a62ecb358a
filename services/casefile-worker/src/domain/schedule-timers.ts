import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import type { WorkerContext } from "../context";
import type { JobRequest } from "@esign/queue";
import { casefileJobAt, jobIds } from "./casefile-jobs";
import { planRound, type RoundSigner } from "./signer-rounds";

/** The columns of a signer the round rules read (RoundSigner). */
const roundSignerSelect = { id: true, signOrder: true, status: true, activeAt: true, expireAt: true, expiredAt: true } as const;

/** What the timers of a case file depend on. */
export interface TimerSnapshot {
  caseFile: { id: number; status: number; activate: boolean; expireAt: Date | null };
  /** Needed only while the case file is pending. */
  signers: RoundSigner[];
}

async function loadTimerSnapshot(ctx: WorkerContext, caseFileId: number): Promise<TimerSnapshot | undefined> {
  const caseFile = await ctx.db.caseFile.findUnique({
    where: { id: caseFileId },
    select: { id: true, status: true, activate: true, expireAt: true },
  });
  if (!caseFile) return undefined;
  const signers = caseFile.status === CASEFILE_STATUS.pending ? await ctx.db.signer.findMany({ where: { caseFileId }, select: roundSignerSelect }) : [];
  return { caseFile, signers };
}

/**
 * The delayed jobs the case file's current state calls for: `expire` at the case file's expireAt,
 * `expire-signer` at each unsigned signer's expireAt, `activate-signer` at the activeAt of
 * current-round signers still waiting for it. Ids are deterministic, so adding them again is a no-op.
 */
export function timerJobsOf({ caseFile, signers }: TimerSnapshot, now: Date = new Date()): JobRequest[] {
  const caseFileId = caseFile.id;
  const pending = caseFile.status === CASEFILE_STATUS.pending;
  const awaitingSend = caseFile.status === CASEFILE_STATUS.new && caseFile.activate;
  const jobs: JobRequest[] = [];
  if (caseFile.expireAt && (pending || awaitingSend)) {
    jobs.push(casefileJobAt("expire", { caseFileId }, jobIds.expire(caseFileId, caseFile.expireAt), caseFile.expireAt));
  }
  if (!pending) return jobs;
  for (const s of signers) {
    const unsigned = s.status === SIGNER_STATUS.new || s.status === SIGNER_STATUS.pending;
    if (unsigned && s.expireAt && !s.expiredAt) {
      jobs.push(casefileJobAt("expire-signer", { signerId: s.id }, jobIds.expireSigner(s.id, s.expireAt), s.expireAt));
    }
  }
  for (const s of planRound(signers, now).activateLater) {
    if (s.activeAt) jobs.push(casefileJobAt("activate-signer", { signerId: s.id }, jobIds.activateSigner(s.id, s.activeAt), s.activeAt));
  }
  return jobs;
}

/**
 * Makes sure every delayed job the case file's current state calls for exists (timerJobsOf), with
 * `also` (jobs of the caller's, e.g. the send at sendAt) in the same pipeline: one round trip
 * however many signers have a deadline. Called after each committed state change (never inside
 * the transaction: a job must not run before the change it reacts to is visible). Safe to repeat:
 * the ids are deterministic. `known` is the committed state when the caller has it at hand (a case
 * file it has just created), which spares reading it back.
 */
export async function scheduleCaseFileTimers(
  ctx: WorkerContext,
  caseFileId: number,
  now: Date = new Date(),
  known?: TimerSnapshot,
  also: readonly JobRequest[] = [],
): Promise<void> {
  const snapshot = known ?? (await loadTimerSnapshot(ctx, caseFileId));
  const jobs = [...also, ...(snapshot ? timerJobsOf(snapshot, now) : [])];
  if (jobs.length > 0) await ctx.producer.enqueueAll(jobs);
}

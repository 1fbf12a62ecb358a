import { CASEFILE_STATUS, type JobData } from "@esign/schema";
import type { WorkerContext } from "../context";
import { advanceCaseFile } from "../domain/advance-casefile";
import { casefileJobAt, jobIds } from "../domain/casefile-jobs";
import { scheduleCaseFileTimers } from "../domain/schedule-timers";

/**
 * casefile/advance: after a signer signed, was deleted or expired (routed from the outbox, or from
 * expire-signer and the sweeper). Follow-up jobs are enqueued after commit; if that fails the job is
 * retried and, the state change being done, only enqueues them.
 */
export async function advanceCaseFileJob(ctx: WorkerContext, data: JobData<"casefile", "advance">): Promise<void> {
  const { caseFileId } = data;
  const { outcome, state } = await advanceCaseFile(ctx.db, caseFileId);
  if (outcome.kind === "pending" && outcome.activated.length > 0) ctx.logger.info("signers activated", { caseFileId, signerIds: outcome.activated });
  if (outcome.kind === "signed") ctx.logger.info("case file signed by everyone", { caseFileId });
  if (!state) return;
  // The state as committed (a retry after a failed enqueue finds it signed and only enqueues); the
  // finalize job and the timers go in one pipeline.
  const finalize = state.caseFile.status === CASEFILE_STATUS.signed ? [casefileJobAt("finalize", { caseFileId }, jobIds.finalize(caseFileId))] : [];
  await scheduleCaseFileTimers(ctx, caseFileId, new Date(), state, finalize);
}

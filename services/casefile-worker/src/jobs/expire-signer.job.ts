import type { Job } from "@esign/queue";
import type { JobData } from "@esign/schema";
import type { WorkerContext } from "../context";
import { enqueueAt, jobIds, sleepUntil } from "../domain/casefile-jobs";
import { expireSigner } from "../domain/expire-signer";

/** casefile/expire-signer: delayed to a signer's expireAt; the case file is then re-evaluated. */
export async function expireSignerJob(ctx: WorkerContext, data: JobData<"casefile", "expire-signer">, job: Job): Promise<void> {
  const { signerId } = data;
  const outcome = await expireSigner(ctx.db, signerId);
  if (outcome.kind === "early") return sleepUntil(job, outcome.at);
  if (outcome.kind !== "expired") return;
  ctx.logger.info("signer access expired", { signerId, caseFileId: outcome.caseFileId });
  await enqueueAt(ctx, "advance", { caseFileId: outcome.caseFileId }, jobIds.advanceAfterSignerExpired(signerId));
}

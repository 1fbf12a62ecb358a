import type { Job } from "@esign/queue";
import type { JobData } from "@esign/schema";
import type { WorkerContext } from "../context";
import { sleepUntil } from "../domain/casefile-jobs";
import { activateSigner } from "../domain/activate-signer";

/** casefile/activate-signer: delayed to a signer's activeAt. */
export async function activateSignerJob(ctx: WorkerContext, data: JobData<"casefile", "activate-signer">, job: Job): Promise<void> {
  const outcome = await activateSigner(ctx.db, data.signerId);
  if (outcome.kind === "early") return sleepUntil(job, outcome.at);
  if (outcome.kind === "activated") ctx.logger.info("signers activated at their activeAt", { signerIds: outcome.signerIds });
}

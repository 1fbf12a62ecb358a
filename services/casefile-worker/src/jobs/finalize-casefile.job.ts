import type { Job } from "@esign/queue";
import type { JobData } from "@esign/schema";
import type { WorkerContext } from "../context";
import { isLastAttempt } from "../domain/casefile-jobs";
import { finalizeCaseFile } from "../domain/finalize-casefile";

/** casefile/finalize: signature pages on the signable PDFs, then completed (5) - or failed (6). */
export async function finalizeCaseFileJob(ctx: WorkerContext, data: JobData<"casefile", "finalize">, job: Job): Promise<void> {
  const outcome = await finalizeCaseFile(ctx, data.caseFileId, { lastAttempt: isLastAttempt(job) });
  if (outcome !== "unchanged") ctx.logger.info(`case file ${outcome}`, { caseFileId: data.caseFileId });
}

import type { Job } from "@esign/queue";
import type { JobData } from "@esign/schema";
import type { WorkerContext } from "../context";
import { sleepUntil } from "../domain/casefile-jobs";
import { expireCaseFile } from "../domain/expire-casefile";

/** casefile/expire: delayed to the case file's expireAt. */
export async function expireCaseFileJob(ctx: WorkerContext, data: JobData<"casefile", "expire">, job: Job): Promise<void> {
  const outcome = await expireCaseFile(ctx.db, data.caseFileId);
  if (outcome.kind === "early") return sleepUntil(job, outcome.at);
  if (outcome.kind === "expired") ctx.logger.info("case file expired", { caseFileId: data.caseFileId });
}

import type { JobData } from "@esign/schema";
import type { WorkerContext } from "../context";
import { sendCaseFile } from "../domain/send-casefile";

/** casefile/send: the delayed job that sends a case file at its sendAt. */
export async function sendCaseFileJob(ctx: WorkerContext, data: JobData<"casefile", "send">): Promise<void> {
  const sent = await ctx.db.$transaction((tx) => sendCaseFile(tx, data.caseFileId));
  ctx.logger.info(sent ? "case file sent" : "case file already sent or not sendable", { caseFileId: data.caseFileId });
}

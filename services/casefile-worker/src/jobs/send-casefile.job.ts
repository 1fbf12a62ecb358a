import type { JobData } from "@esign/schema";
import type { WorkerContext } from "../context";
import { scheduleCaseFileTimers } from "../domain/schedule-timers";
import { sendCaseFile } from "../domain/send-casefile";

/** casefile/send: the delayed job that sends a case file at its sendAt. */
export async function sendCaseFileJob(ctx: WorkerContext, data: JobData<"casefile", "send">): Promise<void> {
  const { sent, state } = await sendCaseFile(ctx.db, data.caseFileId, { logged: data.userLogged === true });
  ctx.logger.info(sent ? "case file sent" : "case file already sent or not sendable", { caseFileId: data.caseFileId });
  // Also when nothing was sent: a retry after a crash between commit and scheduling lands here. From
  // the state as committed, not read back.
  if (state) await scheduleCaseFileTimers(ctx, data.caseFileId, new Date(), state);
}

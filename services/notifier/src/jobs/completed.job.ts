import type { JobData } from "@esign/schema";
import type { NotifierContext } from "../context";
import { notifyCompleted } from "../domain/notify-completed";

/** notifications/completed: the completion mails of a case file (signers, cc recipients, owner). */
export async function completedJob(ctx: NotifierContext, data: JobData<"notifications", "completed">): Promise<void> {
  const meta = { caseFileId: data.caseFileId };
  const outcome = await notifyCompleted(ctx, data.caseFileId);
  if (outcome.status === "skipped") {
    ctx.logger.info("completion mails not sent", { ...meta, reason: outcome.reason });
    return;
  }
  const count = (s: string) => outcome.results.filter((r) => r.status === s).length;
  ctx.logger.info("completion mails sent", {
    ...meta,
    attachments: outcome.attachments,
    sent: count("sent"),
    alreadySent: count("already_sent"),
    undeliverable: count("undeliverable"),
  });
  for (const r of outcome.results.filter((x) => x.status === "undeliverable")) {
    ctx.logger.warn("completion mail undeliverable (permanent refusal); not retried", { ...meta, audience: r.audience, error: r.error });
  }
}

import type { JobData } from "@esign/schema";
import type { NotifierContext } from "../context";
import { notifySubscriptionFailing } from "../domain/notify-subscription-failing";

/** notifications/subscription-failing: warn the creator and the admins before the ladder disables it. */
export async function subscriptionFailingJob(ctx: NotifierContext, data: JobData<"notifications", "subscription-failing">): Promise<void> {
  const outcome = await notifySubscriptionFailing(ctx, data.subscriptionId, new Date(data.since));
  const meta = { subscriptionId: data.subscriptionId, since: new Date(data.since).toISOString() };
  if (outcome.status === "sent")
    ctx.logger.info("subscription-failing warning sent", { ...meta, messageId: outcome.messageId, recipients: outcome.recipients.length });
  else if (outcome.status === "undeliverable")
    ctx.logger.error("subscription-failing warning undeliverable (permanent SMTP failure)", { ...meta, error: outcome.error });
  else ctx.logger.info("subscription-failing warning not needed", { ...meta, reason: outcome.reason });
}

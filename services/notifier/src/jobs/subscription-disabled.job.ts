import type { JobData } from "@esign/schema";
import type { NotifierContext } from "../context";
import { notifySubscriptionDisabled } from "../domain/notify-subscription-disabled";

/** notifications/subscription-disabled: mail the creator and the admins once the ladder gave up. */
export async function subscriptionDisabledJob(ctx: NotifierContext, data: JobData<"notifications", "subscription-disabled">): Promise<void> {
  const outcome = await notifySubscriptionDisabled(ctx, data.subscriptionId);
  const meta = { subscriptionId: data.subscriptionId };
  switch (outcome.status) {
    case "sent":
      ctx.logger.info("subscription-disabled notice sent", { ...meta, messageId: outcome.messageId, recipients: outcome.recipients.length });
      // Refused while others got it: not retried, since a retry would mail the others a second time.
      if (outcome.rejected.length > 0) ctx.logger.warn("subscription-disabled notice refused for some recipients", { ...meta, rejected: outcome.rejected });
      return;
    case "undeliverable":
      ctx.logger.error("subscription-disabled notice undeliverable (permanent SMTP failure); marked as notified, not retried", {
        ...meta,
        responseCode: outcome.responseCode,
        recipients: outcome.recipients,
        error: outcome.error,
      });
      return;
    case "skipped":
      ctx.logger.info("subscription-disabled notice not needed", { ...meta, reason: outcome.reason });
      return;
  }
}

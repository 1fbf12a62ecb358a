import type { JobData } from "@esign/schema";
import type { NotifierContext } from "../context";
import { notifyInvitation } from "../domain/notify-invitation";

/** notifications/user-invitation: the invitee's mail with the link to choose a password. */
export async function userInvitationJob(ctx: NotifierContext, data: JobData<"notifications", "user-invitation">): Promise<void> {
  const outcome = await notifyInvitation(ctx, data.invitationId);
  const meta = { invitationId: data.invitationId };
  if (outcome.status === "sent") ctx.logger.info("invitation mailed", { ...meta, messageId: outcome.messageId });
  else if (outcome.status === "undeliverable")
    ctx.logger.error("invitation undeliverable (permanent SMTP failure); not retried", { ...meta, error: outcome.error });
  else ctx.logger.info("invitation not mailed", { ...meta, reason: outcome.reason });
}

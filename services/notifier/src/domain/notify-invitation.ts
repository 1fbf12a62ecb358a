import { decryptSecret } from "@esign/db";
import { EMAIL_DEFAULT_LANGUAGE, resolveLanguage } from "@esign/i18n";
import { MailDeliveryError } from "@esign/mailer";
import type { NotifierContext } from "../context";
import { invitationMessage } from "./invitation-message";

export type InvitationOutcome =
  | { status: "sent"; messageId: string }
  | { status: "undeliverable"; error: string }
  | { status: "skipped"; reason: "not_found" | "accepted" | "expired" | "already_mailed" };

/**
 * Mails an invitation's link to the invitee, once (mailedAt). The token is read back from its
 * encrypted copy: the job carries only the invitation's id. A transient SMTP failure throws (BullMQ
 * retries); a permanent one is recorded as mailed and logged, since a retry would be refused again.
 */
export async function notifyInvitation(ctx: NotifierContext, invitationId: number): Promise<InvitationOutcome> {
  const invitation = await ctx.db.userInvitation.findUnique({ where: { id: invitationId }, include: { customer: { select: { name: true, language: true } } } });
  if (!invitation) return { status: "skipped", reason: "not_found" };
  if (invitation.acceptedAt) return { status: "skipped", reason: "accepted" };
  if (invitation.expiresAt <= new Date()) return { status: "skipped", reason: "expired" };
  if (invitation.mailedAt) return { status: "skipped", reason: "already_mailed" };
  const message = invitationMessage({
    invitationId,
    to: invitation.email,
    customerName: invitation.customer.name,
    isAdmin: invitation.isAdmin,
    language: resolveLanguage([invitation.customer.language], EMAIL_DEFAULT_LANGUAGE),
    token: decryptSecret(invitation.tokenEnc, ctx.config.ENCRYPTION_KEYRING),
    expiresAt: invitation.expiresAt,
    publicBaseUrl: ctx.config.PUBLIC_BASE_URL,
  });
  const markMailed = () => ctx.db.userInvitation.updateMany({ where: { id: invitationId, mailedAt: null }, data: { mailedAt: new Date() } });
  try {
    const result = await ctx.mailer.send(message);
    await markMailed();
    return { status: "sent", messageId: result.messageId };
  } catch (err) {
    if (!(err instanceof MailDeliveryError) || !err.permanent) throw err;
    await markMailed();
    return { status: "undeliverable", error: err.message };
  }
}

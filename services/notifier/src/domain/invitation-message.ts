import type { TLanguage } from "@esign/i18n";
import type { MailMessage } from "@esign/mailer";
import { messagesFor } from "./messages/catalog";
import { formatUtc } from "./subscription-disabled-message";

/** The web application's page that opens an invitation (served by the gateway under /app). */
export const INVITE_PATH = "/app/invite";

export interface InvitationNotice {
  invitationId: number;
  to: string;
  customerName: string;
  isAdmin: boolean;
  /** The customer's language (Customer.language), else English. */
  language: TLanguage;
  token: string;
  expiresAt: Date;
  publicBaseUrl: string;
}

/** Plain text: one link to open, readable in any client. */
export function invitationMessage(n: InvitationNotice): MailMessage {
  const t = messagesFor(n.language).invitation;
  const link = `${n.publicBaseUrl.replace(/\/$/, "")}${INVITE_PATH}/${n.token}`;
  const lines = [
    t.intro(n.customerName),
    n.isAdmin ? t.asAdmin : t.asMember,
    "",
    t.acceptAction,
    "",
    link,
    "",
    t.expires(formatUtc(n.expiresAt)),
    "",
    t.ignore,
  ];
  return {
    to: [n.to],
    subject: t.subject(n.customerName),
    text: `${lines.join("\n")}\n`,
    headers: { "X-Esign-Notification": "user-invitation", "X-Esign-Invitation-Id": String(n.invitationId), "Content-Language": n.language },
  };
}

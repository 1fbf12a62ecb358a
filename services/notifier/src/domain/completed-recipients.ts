import type { MailAttachment, MailMessage } from "@esign/mailer";
import { EMAIL_DEFAULT_LANGUAGE, resolveLanguage } from "@esign/i18n";
import { SIGNER_STATUS } from "@esign/schema";
import { documentsVisibleTo, fromNameOf, inDocumentOrder, type CaseFileDocument } from "./case-file-documents";
import { completedMessageContent, type AttachmentPolicy, type CompletedAudience } from "./completed-message";
import { renderHtml, renderText } from "./render-message";
import { emailFormatOf, signerSettings } from "./signer-settings";

/** What the completion mails are written from: the case file with its signers, cc recipients and documents. */
export interface CompletedCaseFile {
  id: number;
  title: string;
  senderName: string | null;
  language: string | null;
  sensitiveData: boolean;
  disableEmailAttachments: boolean;
  visibilityMode: number;
  customer: { name: string };
  signers: { id: number; name: string; email: string | null; channel: string; status: number; role: string; language: string | null; notification: unknown }[];
  ccRecipients: { name: string; email: string }[];
  documents: CaseFileDocument[];
}

/** One completion mail to write: who, in which role, which documents, and the message given its attachments. */
export interface CompletedRecipient {
  audience: CompletedAudience;
  address: string;
  name: string;
  signerId?: number;
  build(attachments: MailAttachment[]): MailMessage;
  documents: CaseFileDocument[];
}

/** Attached, left out by the customer (disableEmailAttachments), or never (sensitiveData). */
export const attachmentPolicyOf = (cf: Pick<CompletedCaseFile, "sensitiveData" | "disableEmailAttachments">): AttachmentPolicy =>
  cf.sensitiveData ? "sensitive" : cf.disableEmailAttachments ? "disabled" : "attached";

/**
 * Every recipient of a completed case file, signers first (in id order), then cc recipients, then the
 * owner (null when disableNotificationsOwner or unknown). Signers on e-Boks, deleted signers and
 * signers without an address get no mail. Each in its language: a signer's, else the case file's.
 */
export function completedRecipients(cf: CompletedCaseFile, owner: { email: string | null; name: string } | null): CompletedRecipient[] {
  const policy = attachmentPolicyOf(cf);
  const allDocs = inDocumentOrder(cf.documents);
  const caseFile = { id: cf.id, title: cf.title, senderName: cf.senderName, customerName: cf.customer.name, sensitiveData: cf.sensitiveData };
  const fromName = fromNameOf(cf.senderName);
  const headers = (audience: CompletedAudience) => ({
    "X-Esign-Notification": audience === "owner" ? "owner-completed" : "completed",
    "X-Esign-Case-File-Id": String(cf.id),
    "Auto-Submitted": "auto-generated",
  });

  const recipients: CompletedRecipient[] = [];
  for (const s of cf.signers) {
    // e-Boks signers get no email (the spec: email is unused with that channel); deleted ones none at all.
    if (s.channel === "eboks" || s.status === SIGNER_STATUS.deleted || !s.email?.trim()) continue;
    const settings = signerSettings(s.notification);
    const documents = documentsVisibleTo(allDocs, cf.visibilityMode, s.role);
    const content = completedMessageContent({
      audience: "signer",
      language: resolveLanguage([s.language, cf.language], EMAIL_DEFAULT_LANGUAGE),
      name: s.name,
      caseFile,
      documentTitles: documents.map((d) => d.title),
      attachments: policy,
      customSubject: settings.completedEmailSubject,
      customText: settings.completedEmailText,
    });
    const html = emailFormatOf(settings) === "html";
    recipients.push({
      audience: "signer",
      address: s.email.trim(),
      name: s.name,
      signerId: s.id,
      documents,
      build: (attachments) => ({
        to: [s.email!.trim()],
        subject: content.subject,
        text: renderText(content),
        html: html ? renderHtml(content) : undefined,
        fromName,
        attachments,
        headers: { ...headers("signer"), "X-Esign-Signer-Id": String(s.id) },
      }),
    });
  }
  const others: { audience: CompletedAudience; address: string; name: string }[] = [
    ...cf.ccRecipients.map((c) => ({ audience: "cc" as const, address: c.email.trim(), name: c.name })),
    ...(owner?.email?.trim() ? [{ audience: "owner" as const, address: owner.email.trim(), name: owner.name }] : []),
  ];
  for (const o of others) {
    const content = completedMessageContent({
      audience: o.audience,
      language: resolveLanguage([cf.language], EMAIL_DEFAULT_LANGUAGE),
      name: o.name,
      caseFile,
      documentTitles: allDocs.map((d) => d.title),
      attachments: policy,
    });
    recipients.push({
      ...o,
      documents: allDocs,
      build: (attachments) => ({
        to: [o.address],
        subject: content.subject,
        text: renderText(content),
        html: renderHtml(content),
        fromName,
        attachments,
        headers: headers(o.audience),
      }),
    });
  }

  return recipients;
}

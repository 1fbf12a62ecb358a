import { senderDisplayName } from "./case-file-documents";
import type { TLanguage } from "@esign/i18n";
import { oneLine, paragraphsOf, type Block, type MessageContent } from "./render-message";
import { messagesFor } from "./messages/catalog";

export type CompletedAudience = "signer" | "cc" | "owner";

/** Why the signed documents are or are not attached. */
export type AttachmentPolicy = "attached" | "disabled" | "sensitive";

export interface CompletedMessageInput {
  audience: CompletedAudience;
  language: TLanguage;
  name: string;
  caseFile: { id: number; title: string; senderName: string | null; customerName: string; sensitiveData: boolean };
  documentTitles: string[];
  attachments: AttachmentPolicy;
  /** A signer's completedEmailSubject / completedEmailText. */
  customSubject?: string | null;
  customText?: string | null;
}

/** The completion mail; no link and no tracking: there is nothing left to do, the mail is the copy. */
export function completedMessageContent(input: CompletedMessageInput): MessageContent {
  const t = messagesFor(input.language).signer;
  const cf = input.caseFile;
  const sender = senderDisplayName(cf.senderName, cf.customerName);
  let blocks: Block[];
  if (input.customText) {
    blocks = paragraphsOf(input.customText);
  } else {
    blocks = [
      { type: "paragraph", text: t.greeting(input.name) },
      { type: "paragraph", text: input.audience === "owner" ? t.completedOwnerIntro(cf.title, String(cf.id)) : t.completedIntro(cf.title) },
    ];
    // With sensitiveData the documents are neither attached nor named.
    if (!cf.sensitiveData && input.documentTitles.length > 0) blocks.push({ type: "list", heading: t.documentsHeading, items: input.documentTitles });
    const notice = { attached: t.attachedNotice, disabled: t.notAttachedNotice, sensitive: t.notAttachedSensitiveNotice }[input.attachments];
    blocks.push({ type: "paragraph", text: notice });
    if (input.audience === "cc") blocks.push({ type: "paragraph", text: t.ccNotice });
    if (input.audience === "owner") blocks.push({ type: "paragraph", text: t.ownerNotice });
  }
  return {
    language: input.language,
    subject: oneLine(input.customSubject ?? t.completedSubject(cf.title)),
    blocks,
    footer: t.footer(sender),
  };
}

import { documentsVisibleTo, inDocumentOrder, senderDisplayName, type CaseFileDocument } from "./case-file-documents";
import type { TLanguage } from "@esign/i18n";
import { oneLine, paragraphsOf, type Block, type MessageContent } from "./render-message";
import type { SignerNotificationSettings } from "./signer-settings";
import { messagesFor } from "./messages/catalog";

export interface SignerMessageInput {
  kind: "signing_request" | "reminder";
  language: TLanguage;
  signer: { name: string; role: string };
  caseFile: { title: string; senderName: string | null; customerName: string; sensitiveData: boolean; visibilityMode: number };
  documents: readonly CaseFileDocument[];
  settings: SignerNotificationSettings;
  link: string;
  trackingPixelUrl?: string;
}

/**
 * A signing request or a reminder. The signer's own subject and text replace the template's, each on
 * its own (a custom subject with the default text is fine); the link is always added. With
 * sensitiveData no document is named anywhere in the message, whatever the template.
 */
export function signerMessageContent(input: SignerMessageInput): MessageContent {
  const { kind, settings, caseFile } = input;
  const t = messagesFor(input.language).signer;
  const sender = senderDisplayName(caseFile.senderName, caseFile.customerName);
  const customSubject = kind === "signing_request" ? settings.emailSubject : settings.reminderEmailSubject;
  const customText = kind === "signing_request" ? settings.emailText : settings.reminderEmailText;

  let blocks: Block[];
  if (customText) {
    blocks = paragraphsOf(customText);
  } else {
    blocks = [
      { type: "paragraph", text: t.greeting(input.signer.name) },
      { type: "paragraph", text: kind === "signing_request" ? t.requestIntro(sender, caseFile.title) : t.reminderIntro(sender, caseFile.title) },
    ];
    if (caseFile.sensitiveData) {
      blocks.push({ type: "paragraph", text: t.sensitiveNotice });
    } else {
      const docs = inDocumentOrder(documentsVisibleTo(input.documents, caseFile.visibilityMode, input.signer.role));
      if (docs.length > 0) blocks.push({ type: "list", heading: t.documentsHeading, items: docs.map((d) => d.title) });
    }
  }
  return {
    language: input.language,
    subject: oneLine(customSubject ?? (kind === "signing_request" ? t.requestSubject(caseFile.title) : t.reminderSubject(caseFile.title))),
    blocks,
    action: { label: t.signAction, intro: t.linkIntro, url: input.link },
    trackingPixelUrl: input.trackingPixelUrl,
    footer: t.footer(sender),
  };
}

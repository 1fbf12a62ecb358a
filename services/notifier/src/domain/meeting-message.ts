import type { TLanguage } from "@esign/i18n";
import { senderDisplayName } from "./case-file-documents";
import { messagesFor } from "./messages/catalog";
import { oneLine, type MessageContent } from "./render-message";

export interface MeetingMessageInput {
  language: TLanguage;
  creatorName: string;
  caseFile: { title: string; senderName: string | null; customerName: string };
  /** The signers whose turn it is, each with their own link. */
  signers: readonly { name: string; role: string; link: string }[];
}

/**
 * signOnMeeting's mail to the case file's creator: every signer of the round with their role and
 * their signing link, to be opened with them in person. No tracking image: nobody is waiting for
 * this mail to be opened, and it is not a signer's request.
 */
export function meetingMessageContent(input: MeetingMessageInput): MessageContent {
  const t = messagesFor(input.language);
  const cf = input.caseFile;
  return {
    language: input.language,
    subject: oneLine(t.meeting.subject(cf.title)),
    blocks: [
      { type: "paragraph", text: t.signer.greeting(input.creatorName) },
      { type: "paragraph", text: t.meeting.intro(cf.title) },
      { type: "list", heading: t.meeting.linksHeading, items: input.signers.map((s) => `${s.name} (${s.role}): ${s.link}`) },
      { type: "paragraph", text: t.meeting.keepPrivate },
      { type: "paragraph", text: t.meeting.reason },
    ],
    footer: t.signer.footer(senderDisplayName(cf.senderName, cf.customerName)),
  };
}

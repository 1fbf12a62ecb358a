import type { MailAttachment } from "@esign/mailer";
import type { CaseFileDocument } from "./case-file-documents";
import type { AttachmentPolicy } from "./completed-message";

/**
 * The attachments of a case file's completion mails: each PDF (the sealed one once there is one) is
 * read once per job, and only when a message that carries it is actually sent.
 */
export function completedAttachments(readAll: (sha256: string) => Promise<Buffer>, policy: AttachmentPolicy) {
  const files = new Map<string, Promise<Buffer>>();
  return async (docs: CaseFileDocument[]): Promise<MailAttachment[]> => {
    if (policy !== "attached") return [];
    return Promise.all(
      docs.map(async (d) => {
        const sha = d.signedSha256 ?? d.fileSha256;
        let content = files.get(sha);
        if (!content) {
          content = readAll(sha);
          files.set(sha, content);
        }
        return { filename: pdfFileName(d.name), content: await content, contentType: "application/pdf" };
      }),
    );
  };
}

function pdfFileName(name: string): string {
  // Document names are the uploaded file names; keep them, but never a path.
  const base = name.split(/[\\/]/).pop()?.trim() || "document";
  return /\.pdf$/i.test(base) ? base : `${base}.pdf`;
}

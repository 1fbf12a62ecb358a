import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import type StreamTransport from "nodemailer/lib/stream-transport";
import { addressesOf, composeMail, senderOf } from "./compose";
import type { MailMessage, MailResult, Mailer, MailerLogger } from "./types";

export interface FileOutboxMailerOptions {
  /** MAIL_OUTBOX_DIR; created on first use. */
  dir: string;
  defaultFrom: string;
  logger?: MailerLogger;
}

/** What `<name>.json` holds next to `<name>.eml`: enough to find a message without parsing MIME. */
export interface OutboxSummary {
  messageId: string;
  file: string;
  writtenAt: string;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  attachments: { filename: string; contentType: string; size: number }[];
}

/**
 * The development mailer: every message becomes an .eml file (open it in any mail client) plus a JSON
 * summary, so a laptop without an SMTP server still shows exactly what would have been sent.
 */
export class FileOutboxMailer implements Mailer {
  // CRLF line ends: .eml files are RFC 5322 messages, and that is what an SMTP server would have received.
  private readonly transport: Mail<StreamTransport.SentMessageInfo> = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });

  // The folder is made once (again if it disappears): a recursive mkdir per message was a syscall each.
  private dirReady: Promise<void> | undefined;

  constructor(private readonly options: FileOutboxMailerOptions) {}

  private ensureDir(): Promise<void> {
    this.dirReady ??= mkdir(this.options.dir, { recursive: true }).then(
      () => undefined,
      (err: unknown) => {
        this.dirReady = undefined; // not cached: the next message tries again
        throw err;
      },
    );
    return this.dirReady;
  }

  get dir(): string {
    return this.options.dir;
  }

  async send(message: MailMessage): Promise<MailResult> {
    const mail = composeMail(message, this.options.defaultFrom);
    const info = await this.transport.sendMail(mail);
    const eml = Buffer.isBuffer(info.message) ? info.message : Buffer.from(String(info.message));

    await this.ensureDir();
    // Sortable by time, unique across processes writing to the same folder.
    const base = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}`;
    const emlFile = path.join(this.options.dir, `${base}.eml`);
    const recipients = [...message.to, ...(message.cc ?? [])];
    const summary: OutboxSummary = {
      messageId: info.messageId,
      file: emlFile,
      writtenAt: new Date().toISOString(),
      from: senderOf(message, this.options.defaultFrom).address,
      to: message.to,
      cc: message.cc ?? [],
      subject: message.subject,
      attachments: (message.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.content.length })),
    };
    // Written under a temporary name first, so whoever watches the folder never reads half a message.
    try {
      await writeAtomically(emlFile, eml);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      this.dirReady = undefined; // the folder was removed under us: make it again, once
      await this.ensureDir();
      await writeAtomically(emlFile, eml);
    }
    await writeAtomically(path.join(this.options.dir, `${base}.json`), `${JSON.stringify(summary, null, 2)}\n`);
    this.options.logger?.info("mail written to the outbox", { file: emlFile, recipients: recipients.length });

    return { messageId: info.messageId, accepted: addressesOf(info.envelope.to), rejected: [], rejections: [] };
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

async function writeAtomically(file: string, content: Buffer | string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, content, { flag: "wx" });
  await rename(tmp, file);
}

import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import SMTPPool from "nodemailer/lib/smtp-pool";
import { addressesOf, composeMail } from "./compose";
import { MailDeliveryError, toRejection } from "./mail-delivery-error";
import type { MailMessage, MailResult, Mailer } from "./types";

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://...:465`; query parameters are nodemailer options. */
  url: string;
  /** MAIL_FROM: the sender when a message names none. */
  defaultFrom: string;
  maxConnections?: number;
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
}

/**
 * nodemailer's defaults wait 2 minutes for a connection and 10 minutes on a silent socket. A worker
 * holding a job (and the notifier a row lock) that long is worse than failing and retrying later.
 */
const DEFAULTS = { maxConnections: 5, connectionTimeoutMs: 10_000, greetingTimeoutMs: 10_000, socketTimeoutMs: 60_000 };

/** Mail over SMTP through a small pool of reused connections (workers send in bursts). */
export class SmtpMailer implements Mailer {
  private readonly transport: Mail<SMTPPool.SentMessageInfo>;

  constructor(private readonly options: SmtpMailerOptions) {
    const o = { ...DEFAULTS, ...options };
    const poolOptions: SMTPPool.Options & { maxRequeues: number } = {
      url: o.url,
      pool: true,
      maxConnections: o.maxConnections,
      connectionTimeout: o.connectionTimeoutMs,
      greetingTimeout: o.greetingTimeoutMs,
      socketTimeout: o.socketTimeoutMs,
      // nodemailer re-sends a message without limit when its pooled connection drops mid-send; once is
      // enough to get past a server that closed an idle connection, more only risks duplicates.
      maxRequeues: 1,
    };
    // The pool is built directly: createTransport({ url, pool }) keeps only what the URL says.
    this.transport = nodemailer.createTransport(new SMTPPool(poolOptions));
  }

  async send(message: MailMessage): Promise<MailResult> {
    const mail = composeMail(message, this.options.defaultFrom);
    let info: SMTPPool.SentMessageInfo;
    try {
      info = await this.transport.sendMail(mail);
    } catch (err) {
      throw MailDeliveryError.fromSmtpError(err);
    }
    return {
      messageId: info.messageId,
      accepted: addressesOf(info.accepted),
      rejected: addressesOf(info.rejected),
      // nodemailer puts `recipient` on each of these at runtime; its types leave it out.
      rejections: (info.rejectedErrors ?? []).map((e) => toRejection(e)),
    };
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

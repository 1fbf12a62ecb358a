import { FileOutboxMailer } from "./file-outbox-mailer";
import { SmtpMailer } from "./smtp-mailer";
import type { Mailer, MailerLogger } from "./types";

/** The settings the mailer reads; @esign/config's AppConfig has them all. */
export interface MailerConfig {
  SMTP_URL?: string;
  MAIL_FROM: string;
  MAIL_OUTBOX_DIR: string;
  production?: boolean;
}

/** `smtp://host:port` without credentials or query: safe for a log line. */
export function describeSmtpUrl(smtpUrl: string): string {
  const u = new URL(smtpUrl);
  return `${u.protocol}//${u.hostname}:${u.port || (u.protocol === "smtps:" ? "465" : "587")}`;
}

/**
 * SMTP when SMTP_URL is set, otherwise the file outbox (the development default). Logs which one,
 * because "why did nobody get the mail" is otherwise answered only by reading the configuration.
 */
export function createMailer(config: MailerConfig, logger: MailerLogger): Mailer {
  const smtpUrl = config.SMTP_URL?.trim();
  if (smtpUrl) {
    let target: string;
    try {
      target = describeSmtpUrl(smtpUrl);
    } catch {
      throw new Error("SMTP_URL is not a URL; expected smtp://[user:pass@]host:port or smtps://...");
    }
    if (!target.startsWith("smtp:") && !target.startsWith("smtps:")) {
      throw new Error(`SMTP_URL must start with smtp:// or smtps://, got ${target.split("//")[0]}//`);
    }
    logger.info("mail goes to the SMTP server", { mailer: "smtp", smtp: target });
    return new SmtpMailer({ url: smtpUrl, defaultFrom: config.MAIL_FROM });
  }
  const meta = { mailer: "file-outbox", dir: config.MAIL_OUTBOX_DIR };
  if (config.production) logger.warn("no SMTP_URL in production: mail is only written to the outbox folder, nobody receives it", meta);
  else logger.info("no SMTP_URL: mail is written to the outbox folder (the development default)", meta);
  return new FileOutboxMailer({ dir: config.MAIL_OUTBOX_DIR, defaultFrom: config.MAIL_FROM, logger });
}

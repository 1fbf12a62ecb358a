/** A file sent with a message; content is in memory because our attachments are PDFs we already hold. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: string[];
  cc?: string[];
  subject: string;
  text: string;
  html?: string;
  /** Sender address or `Name <address>`; MAIL_FROM when absent. */
  from?: string;
  /** Display name shown over the sender address (a case file's senderName); the address stays ours. */
  fromName?: string;
  attachments?: MailAttachment[];
  /** Extra headers (e.g. `X-Esign-Signer-Id`); the standard ones come from the fields above. */
  headers?: Record<string, string>;
}

/** One recipient the server refused while it accepted the message for others. */
export interface RecipientRejection {
  recipient: string;
  responseCode?: number;
  /** 5xx: this address will not take the message, whatever we do. */
  permanent: boolean;
  /** The server's reply line, for logs. */
  response?: string;
}

export interface MailResult {
  messageId: string;
  accepted: string[];
  rejected: string[];
  /**
   * Why each of `rejected` was refused (same order). Both mailers here always fill it; optional so a
   * test double can answer with just the three fields above.
   */
  rejections?: RecipientRejection[];
}

export interface Mailer {
  /**
   * Resolves once the server took the message for at least one recipient; throws MailDeliveryError
   * when nobody got it.
   */
  send(message: MailMessage): Promise<MailResult>;
  /** Releases pooled connections; optional so a test double can be a plain `{ send }`. */
  close?(): Promise<void>;
}

/** The two log levels the mailer uses; a winston logger fits, and so does a test spy. */
export interface MailerLogger {
  info(message: string, meta?: Record<string, unknown>): unknown;
  warn(message: string, meta?: Record<string, unknown>): unknown;
}

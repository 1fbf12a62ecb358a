export type { MailAttachment, MailMessage, MailResult, Mailer, MailerLogger, RecipientRejection } from "./types";
export { MailDeliveryError, isPermanentReply } from "./mail-delivery-error";
export type { MailFailureKind, MailDeliveryErrorDetails } from "./mail-delivery-error";
export { SmtpMailer } from "./smtp-mailer";
export type { SmtpMailerOptions } from "./smtp-mailer";
export { FileOutboxMailer } from "./file-outbox-mailer";
export type { FileOutboxMailerOptions, OutboxSummary } from "./file-outbox-mailer";
export { createMailer, describeSmtpUrl } from "./create-mailer";
export type { MailerConfig } from "./create-mailer";

import type { AppConfig } from "@esign/config";
import type { Db } from "@esign/db";
import type { Logger } from "@esign/logger";
import type { Mailer } from "@esign/mailer";
import type { MailThrottle, Producer } from "@esign/queue";
import type { FileStorage } from "@esign/storage";
import type { MailboxGateway } from "./channels/mailbox-gateway";

export interface NotifierContext {
  config: AppConfig;
  logger: Logger;
  db: Db;
  mailer: Mailer;
  /** The electronic mailbox channel (`eboks`); today only the development simulator exists. */
  mailbox: MailboxGateway;
  /** Schedules reminders on the notifications queue. */
  producer: Producer;
  /** Where the (signed) PDFs attached to completion mails are read from. */
  storage: FileStorage;
  /** MAILS_PER_CUSTOMER_PER_MINUTE, shared by the notifier's replicas. */
  mailThrottle: MailThrottle;
}

import type { AppConfig } from "@esign/config";
import type { Db } from "@esign/db";
import type { Logger } from "@esign/logger";
import type { MailThrottle, Producer } from "@esign/queue";
import type { Sealer } from "@esign/seal";
import type { FileStorage } from "@esign/storage";

export interface WorkerContext {
  config: AppConfig;
  logger: Logger;
  db: Db;
  producer: Producer;
  /** MAILS_PER_CUSTOMER_PER_MINUTE: the creation job publishes its own signing requests (publishCommittedEvents). */
  mailThrottle: MailThrottle;
  storage: FileStorage;
  /** The platform seal that finalization applies to every signable document. */
  sealer: Sealer;
}

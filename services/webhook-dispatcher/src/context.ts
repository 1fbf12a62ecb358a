import type { AppConfig } from "@esign/config";
import type { Db } from "@esign/db";
import type { Logger } from "@esign/logger";
import type { Producer } from "@esign/queue";
import type { WebhookSender } from "./domain/send-webhook";
import type { Throttle } from "./domain/throttle";

export interface DispatcherContext {
  config: Pick<AppConfig, "ENCRYPTION_KEY" | "ENCRYPTION_KEYRING" | "WEBHOOK_LADDER_SCALE" | "WEBHOOK_RECOVER_BATCH_SIZE" | "WEBHOOK_RECOVER_BATCH_PAUSE_MS">;
  logger: Logger;
  db: Db;
  /** Enqueues from job handlers; waits through a Redis outage rather than failing the job. */
  producer: Producer;
  sender: WebhookSender;
  /** Per-subscription rate limits, shared by the replicas through Redis. */
  throttle: Throttle;
}

import type { RedisConnection } from "@esign/queue";
import type { AppConfig } from "@esign/config";
import type { Db } from "@esign/db";
import type { Logger } from "@esign/logger";
import type { EnqueueBacklog, Producer } from "@esign/queue";
import type { FileStorage } from "@esign/storage";
import type { PdfInspector } from "@esign/pdf-inspect";

/** Everything a route needs, built once in main.ts and passed down (no module-level singletons). */
export interface GatewayContext {
  config: AppConfig;
  logger: Logger;
  db: Db;
  redis: RedisConnection;
  producer: Producer;
  /** Enqueues of committed work that Redis missed, made again as soon as it answers. */
  enqueueBacklog: EnqueueBacklog;
  storage: FileStorage;
  /** Opens every uploaded PDF (in child processes) before a create is answered. */
  pdfInspector: PdfInspector;
}

export { createPrisma, sqlPool } from "./create-prisma";
export { withSqlTransaction } from "./sql-transaction";
export type { SqlTransactionOptions } from "./sql-transaction";
export type { Db, Tx, SqlPool, SqlClient } from "./create-prisma";
export { applyMigrations, listMigrations } from "./migrate";
export { ensureDatabase, dropDatabase, withDatabase } from "./database-admin";
export { encryptSecret, decryptSecret, sha256Hex, trackingId, parseTrackingId } from "./secrets";
export { insertEvent, insertEvents, eventInsertSql, notifyIfAnySql, OUTBOX_CHANNEL } from "./outbox";
export { SqlParams } from "./sql-params";
export type { OutboxEvent } from "./outbox";
export { Prisma } from "./generated/client";
export type {
  Customer,
  User,
  ApiClient,
  CreationJob,
  CaseFile,
  Document,
  Signer,
  SigningLink,
  CcRecipient,
  Event,
  WebhookSubscription,
  WebhookDelivery,
  WebhookAttempt,
} from "./generated/client";
export { JobStatus } from "./generated/client";

export { createPrisma, sqlPool } from "./create-prisma";
export { withSqlTransaction } from "./sql-transaction";
export { countStatements, statementCounts } from "./statement-counts";
export type { StatementCounts } from "./statement-counts";
export type { SqlTransactionOptions } from "./sql-transaction";
export type { Db, Tx, SqlPool, SqlClient } from "./create-prisma";
export { applyMigrations, listMigrations } from "./migrate";
export { ensureDatabase, dropDatabase, withDatabase } from "./database-admin";
export { reencryptSecrets, type ReencryptCounts, type ReencryptOptions } from "./reencrypt-secrets";
export {
  encryptSecret,
  decryptSecret,
  isEncrypted,
  isEncryptedWith,
  keyId,
  openStoredId,
  type Keyring,
  sha256Hex,
  trackingId,
  parseTrackingId,
  newSigningToken,
  hashSigningToken,
  signingLinkUrl,
} from "./secrets";
export {
  emitEvent,
  emitEvents,
  eventInsert,
  eventRows,
  eventRowsCtes,
  SAMPLE_EVENT_ROWS,
  recordLog,
  logInsert,
  serializeEvents,
  serializedEventInsert,
  serializedLogInsert,
  listenToOutbox,
  notifyOutboxIfAny,
  notifyOutboxIfAnyUnrelayed,
  OUTBOX_CHANNEL,
} from "./outbox";
export type { EventInsertRow, EventRows, RelayedAtOf } from "./outbox";
export { qb } from "./typed-sql/builder";
export type { QueryBuilder, DB } from "./typed-sql/builder";
export type { CompiledQuery, Expression, ExpressionBuilder, Insertable, RawBuilder, Selectable, SelectQueryBuilder, SqlBool, Updateable } from "kysely";
export { defineStatement, definedStatements, typedSqlStats } from "./typed-sql/statement";
export type { Statement, TypedSqlStats } from "./typed-sql/statement";
export { run, runOne, runCompiled } from "./typed-sql/run";
export { runAndCommit } from "./typed-sql/run-and-commit";
export { firstRead } from "./typed-sql/read-after-opening";
export type { FirstRead } from "./typed-sql/read-after-opening";
export { violatesUnique } from "./pg-errors";
export { prepareStatements } from "./typed-sql/prepared";
export { keyList, keysOf } from "./typed-sql/key-list";
export type { SqlRunner } from "./typed-sql/run";
export {
  anyOf,
  anyOfSubquery,
  arrayOf,
  commitsWithoutWaitingForDisk,
  cteRows,
  anyRowIn,
  daysBefore,
  literalInt,
  literalText,
  literalUuid,
  isPasteableText,
  nextId,
  nextIds,
  idOrNotClaimable,
  isNotClaimable,
  jsonArrayLength,
  isoMicroseconds,
  jsonArrayFrom,
  jsonInt,
  jsonText,
  one,
  secondsBefore,
  textParam,
  typedArray,
  unnestRows,
  unnestRowsInOrder,
  valueFrom,
} from "./typed-sql/expressions";
export type { PgElementType } from "./typed-sql/expressions";
export { advisoryXactLock, advisoryXactLockOpening, ping } from "./typed-sql/locks.sql";
export { withCtes } from "./typed-sql/with-ctes";
export { lockCaseFileRow, lockSignerRow } from "./typed-sql/row-locks.sql";
export { contactInsert, contactRows, storeContacts, storeContactsSql } from "./contacts.sql";
export type { ContactPerson, ContactRow } from "./contacts.sql";
export type { CteQuery } from "./typed-sql/with-ctes";
export type { EventTransaction, OutboxEvent, SerializedEvent } from "./outbox";
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
  WebhookRecoverTask,
  LogEntry,
  Folder,
  Contact,
} from "./generated/client";
export { JobStatus } from "./generated/client";

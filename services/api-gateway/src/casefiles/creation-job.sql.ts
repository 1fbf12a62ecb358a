import { defineStatement, qb, type DB, type Insertable } from "@esign/db";

type NewCreationJobRow = Omit<Insertable<DB["CreationJob"]>, "updatedAt"> & { id: string };

/**
 * The creation job row of an accepted create (see insertCreationJob), answering what the client is
 * told (id, payloadHash, createdAt). A second job under a customer's Idempotency-Key fails on the
 * (customerId, idempotencyKey) unique index: the route then answers the winner, as a replay.
 *
 * Locks: the new row only (and, with a key, that key's index entry: a racing insert of the same key
 * waits for this transaction and then fails).
 */
export const insertCreationJobSql = defineStatement(
  "insert-creation-job",
  {
    id: "00000000-0000-4000-8000-000000000000",
    customerId: 1,
    userId: 1,
    payloadHash: "h",
    idempotencyKey: null,
    payload: "{}",
    files: "[]",
    maxRetries: 3,
  } as NewCreationJobRow,
  (row: NewCreationJobRow) =>
    qb
      .insertInto("CreationJob")
      .values((eb) => ({ ...row, updatedAt: eb.fn<Date>("now") }))
      .returning(["id", "payloadHash", "createdAt"]),
  { reuse: "shape" },
);

/**
 * The creation job a customer sent under an Idempotency-Key, if any: what a replay answers.
 *
 * Locks: nothing: a job's id, payloadHash and createdAt never change.
 */
export const creationJobByKeySql = defineStatement(
  "creation-job-by-idempotency-key",
  { customerId: 1, idempotencyKey: "key" },
  ({ customerId, idempotencyKey }) =>
    qb.selectFrom("CreationJob").select(["id", "payloadHash", "createdAt"]).where("customerId", "=", customerId).where("idempotencyKey", "=", idempotencyKey),
  { reuse: "shape" },
);

/**
 * The create payload's `folderId` when it is a folder of the customer (no row otherwise): one
 * primary-key lookup, made only when a folderId is given.
 *
 * Locks: nothing. A folder deleted after this check and before the job runs leaves the case file
 * without a folder (the worker's create reads the folder again, FOR KEY SHARE).
 */
export const customerFolderSql = defineStatement(
  "customer-folder",
  { id: 1, customerId: 1 },
  ({ id, customerId }) => qb.selectFrom("Folder").select("id").where("id", "=", id).where("customerId", "=", customerId),
  { reuse: "shape" },
);

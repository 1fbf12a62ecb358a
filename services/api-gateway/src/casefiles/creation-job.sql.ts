import { defineStatement, qb, type DB, type Insertable } from "@esign/db";

type NewCreationJobRow = Omit<Insertable<DB["CreationJob"]>, "updatedAt"> & { id: string };

/** The creation job row of an accepted create (see insertCreationJob). */
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

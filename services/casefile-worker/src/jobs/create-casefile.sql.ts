import { defineStatement, qb, secondsBefore } from "@esign/db";

/**
 * Reads the job with its customer's settings and marks it processing (unless it is done), in one
 * statement, with the earlier job it repeats, if any (see claimCreationJob).
 */
export const claimCreationJobSql = defineStatement(
  "claim-creation-job",
  { id: "00000000-0000-4000-8000-000000000000", retries: 0, duplicateWindowSeconds: 60 },
  ({ id, retries, duplicateWindowSeconds }) =>
    qb
      .with("processing", (db) =>
        db
          .updateTable("CreationJob")
          .set((eb) => ({ status: "processing", retries, updatedAt: eb.fn<Date>("now") }))
          .where("id", "=", id)
          .where("status", "in", ["pending", "processing"]),
      )
      .selectFrom("CreationJob as cj")
      .innerJoin("Customer as c", "c.id", "cj.customerId")
      .select((eb) => [
        eb.cast<string>("cj.status", "text").as("status"),
        "cj.customerId",
        "cj.userId",
        "cj.payload",
        "cj.files",
        "c.eboksEnabled",
        "c.secureSigningMethods",
        eb
          .selectFrom("CreationJob as e")
          .select("e.id")
          // In SQL, not in the build: a value never decides the text (reuse: "shape").
          .where((w) => w(w.cast<number>(w.val(duplicateWindowSeconds), "integer"), ">", 0))
          .where("cj.idempotencyKey", "is", null)
          .whereRef("e.customerId", "=", "cj.customerId")
          .whereRef("e.payloadHash", "=", "cj.payloadHash")
          .where("e.createdAt", ">=", secondsBefore(eb.ref("cj.createdAt"), duplicateWindowSeconds))
          .where((w) =>
            w.or([w("e.createdAt", "<", w.ref("cj.createdAt")), w.and([w("e.createdAt", "=", w.ref("cj.createdAt")), w("e.id", "<", w.ref("cj.id"))])]),
          )
          .where("e.status", "not in", ["failed", "aborted_duplicated"])
          .orderBy("e.createdAt")
          .orderBy("e.id")
          .limit(1)
          .as("duplicateOf"),
      ])
      .where("cj.id", "=", id),
  { reuse: "shape" },
);

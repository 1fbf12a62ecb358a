import { commitsWithoutWaitingForDisk, defineStatement, jsonArrayLength, nextId, nextIds, qb, secondsBefore, type JobStatus } from "@esign/db";

/**
 * Reads the job with its customer's settings and marks it processing (unless it is done), in one
 * statement, with the earlier job it repeats, if any (see claimCreationJob). For a job still to be
 * done it also draws the ids its case file and signers will have (one per signer of the stored
 * payload, ascending), so that the case file's one statement can name them in links, events and the
 * result; ids drawn for a run that goes no further are gaps, as a rolled-back insert leaves.
 *
 * Locks: the job's row, by the UPDATE, until the statement commits (it runs alone): a second worker
 * claiming the same job waits and then reads it as the first one left it. The statement that makes
 * the case file takes the lock again and writes only while the job is still pending or processing
 * (persistCaseFileSql). Commits without waiting for the disk (commitsWithoutWaitingForDisk):
 * nothing a client was told depends on it.
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
        // Only for a job still to be done: a run of a finished one draws nothing.
        eb.case().when("cj.status", "in", ["pending", "processing"]).then(nextId("CaseFile")).end().as("caseFileId"),
        eb
          .case()
          .when("cj.status", "in", ["pending", "processing"])
          .then(nextIds("Signer", jsonArrayLength(eb.ref("cj.payload"), "signers")))
          .end()
          .as("signerIds"),
      ])
      .where("cj.id", "=", id)
      // Lost in a crash, "processing" reads "pending" again and the job's retry claims it anew.
      .where(commitsWithoutWaitingForDisk),
  { reuse: "shape" },
);

/**
 * Ends a creation job that made no case file: failed (an account check, an unreadable payload, the
 * last attempt's error) or aborted_duplicated (it repeats an earlier job), with the message the job
 * status shows and the attempts made. Only a job still pending or processing changes: a late
 * duplicate run must not overwrite a success. Answers the job's id when it changed.
 *
 * Locks: the job's row, by the UPDATE, until the statement commits (it runs alone); a transaction
 * making the case file for it at the same time holds that lock (persistCaseFileSql's UPDATE) and,
 * committed first, leaves the job completed, which this statement then leaves alone.
 */
export const finishCreationJobSql = defineStatement(
  "finish-creation-job-without-case-file",
  { id: "00000000-0000-4000-8000-000000000000", status: "failed" as Extract<JobStatus, "failed" | "aborted_duplicated">, errorMessage: "e", retries: 0 },
  ({ id, status, errorMessage, retries }) =>
    qb
      .updateTable("CreationJob")
      .set((eb) => ({ status, errorMessage, retries, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", id)
      .where("status", "in", ["pending", "processing"])
      .returning("id"),
  { reuse: "shape" },
);

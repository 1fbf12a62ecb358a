import { defineStatement, qb } from "@esign/db";

/*
 * Every state change of a case file or of its signers goes through the case file's row lock (the
 * gateway's signing routes take the same one), taken by the transaction's first statement and read
 * with it: two jobs - or a job and a signer - never decide on the same stale snapshot. A job that
 * knows the case file takes it with @esign/db's lockCaseFileRow; one that knows only a signer, here.
 */

/**
 * Locks the case file of a signer and reads it, in one statement: the activate-signer job knows only
 * the signer (a signer's case file never changes), and every change of a signer goes through its case
 * file's lock (lockCaseFileRow's, taken here by the signer's id).
 *
 * Locks: the CaseFile row (FOR UPDATE) until the transaction ends.
 */
export const lockCaseFileOfSignerSql = defineStatement(
  "lock-case-file-of-signer",
  { signerId: 1 },
  ({ signerId }) =>
    qb
      .selectFrom("CaseFile")
      .selectAll()
      .where("id", "=", (eb) => eb.selectFrom("Signer").select("Signer.caseFileId").where("Signer.id", "=", signerId))
      .forUpdate(),
  { reuse: "shape" },
);

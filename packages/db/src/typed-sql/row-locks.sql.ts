import { qb } from "./builder";
import { defineStatement } from "./statement";

/*
 * Row locks (FOR UPDATE) that order the writers of one case file: every state change of a case file
 * or of its signers locks the case file row first, then the signer's; the gateway's signing routes,
 * its deletes and the casefile-worker all take them in that order, so none decides on a stale
 * snapshot and none deadlocks another.
 */

/**
 * Locks a case file (of this customer, when given) and reads all of it as locked; no row when there
 * is no such case file (of that customer).
 *
 * Locks: the CaseFile row (FOR UPDATE) until the transaction ends; a writer's first lock.
 */
export const lockCaseFileRow = defineStatement(
  "lock-case-file",
  { id: 1, customerId: 1 as number | undefined },
  ({ id, customerId }) =>
    qb
      .selectFrom("CaseFile")
      .selectAll()
      .where("id", "=", id)
      .$if(customerId !== undefined, (q) => q.where("customerId", "=", customerId!))
      .forUpdate(),
  { reuse: "shape" },
);

/**
 * Locks a signer (of this case file, when given) and reads where it stands.
 *
 * Locks: the Signer row (FOR UPDATE) until the transaction ends; taken after the case file's, except
 * by the tracking pixel, which locks nothing else.
 */
export const lockSignerRow = defineStatement(
  "lock-signer",
  { id: 1, caseFileId: 1 as number | undefined },
  ({ id, caseFileId }) =>
    qb
      .selectFrom("Signer")
      .select(["id", "caseFileId", "status"])
      .where("id", "=", id)
      .$if(caseFileId !== undefined, (q) => q.where("caseFileId", "=", caseFileId!))
      .forUpdate(),
  { reuse: "shape" },
);

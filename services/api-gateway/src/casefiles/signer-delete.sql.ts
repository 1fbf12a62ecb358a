import { defineStatement, qb } from "@esign/db";
import { SIGNER_STATUS } from "@esign/schema";

/*
 * The statements of DELETE .../casefiles/{id}/signers/{signerId} (signer-delete-route.ts): its
 * transaction locks the case file row, then the signer row (lockCaseFileRow, lockSignerRow: the
 * order every writer of a case file keeps), then reads and writes under those locks.
 */

const ID = 1;

/**
 * The signers of a case file with what decides whether each still counts (status, role).
 *
 * Locks: nothing: the case file's lock, held by the caller, keeps every writer of its signers out
 * (they all lock the case file first), so the list cannot change before the transaction ends.
 */
export const caseFileSignersSql = defineStatement(
  "case-file-signers-for-delete",
  { caseFileId: ID },
  ({ caseFileId }) => qb.selectFrom("Signer").select(["id", "status", "role"]).where("caseFileId", "=", caseFileId),
  { reuse: "shape" },
);

/**
 * The documents of a case file, with what decides who signs them (signable, roles).
 *
 * Locks: nothing: documents do not change once the case file exists.
 */
export const caseFileDocumentRolesSql = defineStatement(
  "case-file-document-roles",
  { caseFileId: ID },
  ({ caseFileId }) => qb.selectFrom("Document").select(["signable", "roles"]).where("caseFileId", "=", caseFileId),
  { reuse: "shape" },
);

/**
 * Signer -> deleted (3), with the time.
 *
 * Locks: nothing more (the signer row is already locked by lockSignerRow).
 */
export const markSignerDeletedSql = defineStatement(
  "mark-signer-deleted",
  { signerId: ID, deletedAt: new Date(0) },
  ({ signerId, deletedAt }) =>
    qb
      .updateTable("Signer")
      .set((eb) => ({ status: SIGNER_STATUS.deleted, deletedAt, updatedAt: eb.fn<Date>("now") }))
      .where("id", "=", signerId),
  { reuse: "shape" },
);

import { emitEvent, lockCaseFileRow, lockSignerRow, run, runOne, type Db } from "@esign/db";
import { AppError } from "@esign/errors";
import { CASEFILE_STATUS, SIGNER_STATUS, signableDocumentsFor, signerEvent, type LogAudit } from "@esign/schema";
import { caseFileDocumentRolesSql, caseFileSignersSql, markSignerDeletedSql } from "./signer-delete.sql";

const notFound = () => new AppError("not_found", "Signer not found");

/** Signers who still count toward the case file: not deleted, and with something to sign. */
const STILL_SIGNING: readonly number[] = [SIGNER_STATUS.new, SIGNER_STATUS.pending, SIGNER_STATUS.signed, SIGNER_STATUS.undeliverable];

export interface SignerToDelete {
  customerId: number;
  caseFileId: number;
  signerId: number;
  /** The user who asked, from where: the event log entry the `deleted` event also is. */
  audit: LogAudit;
}

/**
 * Removes a signer who has not signed, while the case file is new or pending, and never the last
 * signer who can sign: our `DELETE /send/api/v1/casefiles/{id}/signers/{signerId}` and Penneo's
 * `DELETE /api/{v1,v3}/casefiles/{id}/signers/{signerId}`. One transaction locks the case file, then
 * the signer (the worker's order); the relay routes `sign.signer.deleted` to the worker's `advance`,
 * which may complete the case file or open the next round. Another customer's case file is not
 * found. Answers the case file's status.
 */
export async function deleteSigner(db: Db, target: SignerToDelete): Promise<number> {
  const { customerId, caseFileId, signerId } = target;
  return db.$transaction(async (tx) => {
    const cf = await runOne(tx, lockCaseFileRow, { id: caseFileId, customerId });
    if (!cf) throw notFound();
    await run(tx, lockSignerRow, { id: signerId, caseFileId });
    const signers = await run(tx, caseFileSignersSql, { caseFileId });
    const signer = signers.find((s) => s.id === signerId);
    if (!signer) throw notFound();
    if (cf.status !== CASEFILE_STATUS.new && cf.status !== CASEFILE_STATUS.pending) {
      throw new AppError("conflict", "Signers can only be deleted while the case file is new or pending");
    }
    if (signer.status === SIGNER_STATUS.signed) throw new AppError("conflict", "The signer has already signed and cannot be deleted");
    if (signer.status === SIGNER_STATUS.deleted) throw new AppError("conflict", "The signer is already deleted");
    if (signer.status === SIGNER_STATUS.rejected) throw new AppError("conflict", "The signer has rejected and cannot be deleted");
    const documents = await run(tx, caseFileDocumentRolesSql, { caseFileId });
    const remaining = signers.filter((s) => s.id !== signer.id && STILL_SIGNING.includes(s.status) && signableDocumentsFor(documents, s.role).length > 0);
    if (remaining.length === 0) throw new AppError("conflict", "This is the last signer who can sign: a case file needs at least one signer");

    await run(tx, markSignerDeletedSql, { signerId: signer.id, deletedAt: new Date() });
    await emitEvent(tx, signerEvent({ id: caseFileId, customerId }, cf.status, signer.id, "sign.signer.deleted", target.audit));
    return cf.status;
  });
}

import { lockCaseFileRow, runOne, type CaseFile, type Tx } from "@esign/db";

/**
 * Locks a case file row for the rest of the transaction and reads it afterwards. Every state change of
 * a case file or of its signers goes through this lock (the gateway's signing routes take the same
 * one), so two jobs - or a job and a signer - never decide on the same stale snapshot.
 */
export async function lockCaseFile(tx: Tx, caseFileId: number): Promise<CaseFile | null> {
  // Lock and read in one statement: the row as locked is the row read (and one query, not two).
  return (await runOne(tx, lockCaseFileRow, { id: caseFileId, customerId: undefined })) ?? null;
}

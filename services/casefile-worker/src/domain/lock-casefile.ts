import type { CaseFile, Tx } from "@esign/db";

/**
 * Locks a case file row for the rest of the transaction and reads it afterwards. Every state change of
 * a case file or of its signers goes through this lock (the gateway's signing routes take the same
 * one), so two jobs - or a job and a signer - never decide on the same stale snapshot.
 */
export async function lockCaseFile(tx: Tx, caseFileId: number): Promise<CaseFile | null> {
  // Lock and read in one statement: the row as locked is the row read (and one query, not two).
  const locked = await tx.$queryRaw<CaseFile[]>`SELECT * FROM "CaseFile" WHERE id = ${caseFileId} FOR UPDATE`;
  return locked[0] ?? null;
}

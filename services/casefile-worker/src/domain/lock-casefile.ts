import type { CaseFile, Tx } from "@esign/db";

/**
 * Locks a case file row for the rest of the transaction and reads it afterwards. Every state change of
 * a case file or of its signers goes through this lock (the gateway's signing routes take the same
 * one), so two jobs - or a job and a signer - never decide on the same stale snapshot.
 */
export async function lockCaseFile(tx: Tx, caseFileId: number): Promise<CaseFile | null> {
  const locked = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM "CaseFile" WHERE id = ${caseFileId} FOR UPDATE`;
  if (locked.length === 0) return null;
  return tx.caseFile.findUnique({ where: { id: caseFileId } });
}

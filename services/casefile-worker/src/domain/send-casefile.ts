import { insertEvent, type Tx } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";

/**
 * Sends a case file: new -> pending, and the signers of the lowest signOrder round become active
 * (`sign.signer.requestActivated`, written to the outbox in the same transaction). Idempotent: a case
 * file that is no longer new is left alone, so a duplicate send job changes nothing.
 */
export async function sendCaseFile(tx: Tx, caseFileId: number): Promise<boolean> {
  const locked = await tx.$queryRaw<{ status: number; customerId: number }[]>`
    SELECT status, "customerId" FROM "CaseFile" WHERE id = ${caseFileId} FOR UPDATE`;
  const row = locked[0];
  if (!row || row.status !== CASEFILE_STATUS.new) return false;
  const status = CASEFILE_STATUS.pending;
  await tx.caseFile.update({ where: { id: caseFileId }, data: { status, sentAt: new Date() } });
  const signers = await tx.signer.findMany({
    where: { caseFileId, status: SIGNER_STATUS.new },
    select: { id: true, signOrder: true },
    orderBy: { signOrder: "asc" },
  });
  const firstRound = signers[0]?.signOrder;
  const active = signers.filter((s) => s.signOrder === firstRound);
  if (active.length === 0) return true;
  await tx.signer.updateMany({ where: { id: { in: active.map((s) => s.id) } }, data: { status: SIGNER_STATUS.pending } });
  for (const s of active) {
    await insertEvent(tx, {
      customerId: row.customerId,
      topic: "signer",
      eventType: "sign.signer.requestActivated",
      payload: { id: s.id, caseFile: { id: caseFileId, status } },
    });
  }
  return true;
}

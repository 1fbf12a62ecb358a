import { emitEvents, type CaseFile, type Tx } from "@esign/db";
import { SIGNER_STATUS, signerEvent } from "@esign/schema";
import { planRound, type RoundSigner } from "./signer-rounds";

export const roundSignerSelect = { id: true, signOrder: true, status: true, activeAt: true, expireAt: true, expiredAt: true } as const;

/**
 * Activates the signers of the current round whose access has started: status 1, activatedAt and one
 * `sign.signer.requestActivated` each (the relay turns it into the signing request). The caller holds
 * the case file lock and has already set `caseFileStatus`, which the events carry. Only status 0 moves,
 * so running it twice activates nobody twice.
 */
export async function activateCurrentRound(tx: Tx, caseFile: Pick<CaseFile, "id" | "customerId">, caseFileStatus: number, now: Date): Promise<RoundSigner[]> {
  const signers = await tx.signer.findMany({ where: { caseFileId: caseFile.id }, select: roundSignerSelect });
  const { activateNow } = planRound(signers, now);
  if (activateNow.length === 0) return activateNow;
  // One UPDATE for the round and one INSERT for its events (instead of two queries per signer).
  const moved = await tx.signer.updateManyAndReturn({
    where: { id: { in: activateNow.map((s) => s.id) }, status: SIGNER_STATUS.new },
    data: { status: SIGNER_STATUS.pending, activatedAt: now },
    select: { id: true },
  });
  const movedIds = new Set(moved.map((s) => s.id));
  // In signer order (as planned), so the events' seq follows it.
  await emitEvents(
    tx,
    activateNow.filter((s) => movedIds.has(s.id)).map((s) => signerEvent(caseFile, caseFileStatus, s.id, "sign.signer.requestActivated")),
  );
  return activateNow;
}

import { emitEvent, type Tx } from "@esign/db";
import { CASEFILE_STATUS, caseFileEvent } from "@esign/schema";
import { lockCaseFile } from "./lock-casefile";

export type ExpireOutcome = { kind: "expired" } | { kind: "unchanged" } | { kind: "early"; at: Date };

/**
 * Expires a case file that is still out for signing (1) or activated but waiting for its sendAt
 * (0 with activate): status 7, expiredAt, `sign.casefile.expired`. Anything else (signed, completed,
 * rejected, a case file left unsent on purpose) is not touched. A job that fires before expireAt
 * (the date moved, clocks differ) gets `early` back and waits again instead of expiring too soon.
 */
export async function expireCaseFile(tx: Tx, caseFileId: number, now: Date = new Date()): Promise<ExpireOutcome> {
  const caseFile = await lockCaseFile(tx, caseFileId);
  if (!caseFile?.expireAt) return { kind: "unchanged" };
  const expirable = caseFile.status === CASEFILE_STATUS.pending || (caseFile.status === CASEFILE_STATUS.new && caseFile.activate);
  if (!expirable) return { kind: "unchanged" };
  if (caseFile.expireAt.getTime() > now.getTime()) return { kind: "early", at: caseFile.expireAt };
  const status = CASEFILE_STATUS.expired;
  await tx.caseFile.update({ where: { id: caseFileId }, data: { status, expiredAt: now } });
  await emitEvent(tx, caseFileEvent(caseFile, status, "sign.casefile.expired"));
  return { kind: "expired" };
}

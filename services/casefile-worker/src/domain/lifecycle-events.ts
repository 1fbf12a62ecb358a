import { insertEvent, insertEvents, type Tx } from "@esign/db";
import { caseFileEvent, signerEvent, type CaseFileEventType, type SignerEventType } from "@esign/schema";

type CaseFileRef = { id: number; customerId: number };

/** Writes a case file event (the catalog's caseFileEvent) with the status after the change. */
export function emitCaseFileEvent(tx: Tx, caseFile: CaseFileRef, status: number, eventType: CaseFileEventType): Promise<string> {
  return insertEvent(tx, caseFileEvent(caseFile, status, eventType));
}

/** Writes a signer event (the catalog's signerEvent) with the case file's status after the change. */
export function emitSignerEvent(tx: Tx, caseFile: CaseFileRef, caseFileStatus: number, signerId: number, eventType: SignerEventType): Promise<string> {
  return insertEvent(tx, signerEvent(caseFile, caseFileStatus, signerId, eventType));
}

/** The same event for several signers, in one statement, in the order given. */
export function emitSignerEvents(
  tx: Tx,
  caseFile: CaseFileRef,
  caseFileStatus: number,
  signerIds: readonly number[],
  eventType: SignerEventType,
): Promise<string[]> {
  return insertEvents(
    tx,
    signerIds.map((id) => signerEvent(caseFile, caseFileStatus, id, eventType)),
  );
}

import { insertEvent, insertEvents, type OutboxEvent, type Tx } from "@esign/db";
import type { EventType } from "@esign/schema";

type CaseFileRef = { id: number; customerId: number };

/** `{id, status}`: the spec's default casefile payload, with the status after the change. */
export function emitCaseFileEvent(tx: Tx, caseFile: CaseFileRef, status: number, eventType: EventType & `sign.casefile.${string}`): Promise<string> {
  return insertEvent(tx, { customerId: caseFile.customerId, topic: "casefile", eventType, payload: { id: caseFile.id, status } });
}

/** `{id, caseFile: {id, status}}`: the spec's default signer payload, with the case file status after the change. */
export function signerEvent(caseFile: CaseFileRef, caseFileStatus: number, signerId: number, eventType: EventType & `sign.signer.${string}`): OutboxEvent {
  return { customerId: caseFile.customerId, topic: "signer", eventType, payload: { id: signerId, caseFile: { id: caseFile.id, status: caseFileStatus } } };
}

export function emitSignerEvent(
  tx: Tx,
  caseFile: CaseFileRef,
  caseFileStatus: number,
  signerId: number,
  eventType: EventType & `sign.signer.${string}`,
): Promise<string> {
  return insertEvent(tx, signerEvent(caseFile, caseFileStatus, signerId, eventType));
}

/** The same event for several signers, in one statement, in the order given. */
export function emitSignerEvents(
  tx: Tx,
  caseFile: CaseFileRef,
  caseFileStatus: number,
  signerIds: readonly number[],
  eventType: EventType & `sign.signer.${string}`,
): Promise<string[]> {
  return insertEvents(tx, signerIds.map((id) => signerEvent(caseFile, caseFileStatus, id, eventType)));
}

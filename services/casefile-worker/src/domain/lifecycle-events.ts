import { insertEvent, type Tx } from "@esign/db";
import type { EventType } from "@esign/schema";

type CaseFileRef = { id: number; customerId: number };

/** `{id, status}`: the spec's default casefile payload, with the status after the change. */
export function emitCaseFileEvent(tx: Tx, caseFile: CaseFileRef, status: number, eventType: EventType & `sign.casefile.${string}`): Promise<string> {
  return insertEvent(tx, { customerId: caseFile.customerId, topic: "casefile", eventType, payload: { id: caseFile.id, status } });
}

/** `{id, caseFile: {id, status}}`: the spec's default signer payload, with the case file status after the change. */
export function emitSignerEvent(
  tx: Tx,
  caseFile: CaseFileRef,
  caseFileStatus: number,
  signerId: number,
  eventType: EventType & `sign.signer.${string}`,
): Promise<string> {
  return insertEvent(tx, {
    customerId: caseFile.customerId,
    topic: "signer",
    eventType,
    payload: { id: signerId, caseFile: { id: caseFile.id, status: caseFileStatus } },
  });
}

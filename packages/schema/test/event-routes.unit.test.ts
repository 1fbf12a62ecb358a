import { EVENT_TYPES, hasInternalReactions, internalJobsFor } from "../src";

/*
 * The internal reactions to events, and which event types have none: a writer inserts an event of
 * such a type relayed when no subscription wants it (outbox-relay's relayedUnlessSubscribed), so a
 * reaction added to a type must show in hasInternalReactions, or its jobs would never be added.
 */

// A payload both shapes accept: a signer's (id, caseFile) and a case file's (id, status).
const event = (eventType: string) => ({ id: "e1", eventType, customerId: 3, payload: { id: 7, status: 1, caseFile: { id: 9, status: 1 } } });

describe("event routes", () => {
  it("has internal reactions exactly for the types that route to a job", () => {
    for (const type of EVENT_TYPES) expect([type, hasInternalReactions(type)]).toEqual([type, internalJobsFor(event(type)).length > 0]);
  });

  it("routes activation, signing and completion, and nothing of a message's outcome", () => {
    expect(internalJobsFor(event("sign.signer.requestActivated"))).toEqual([
      { queue: "notifications", name: "signing-request", data: { signerId: 7, eventId: "e1", customerId: 3 }, jobId: "request-e1" },
    ]);
    for (const type of ["sign.signer.signed", "sign.signer.deleted", "sign.signer.rejected"]) {
      expect(internalJobsFor(event(type))).toEqual([{ queue: "casefile", name: "advance", data: { caseFileId: 9 }, jobId: "advance-e1" }]);
    }
    expect(internalJobsFor(event("sign.casefile.completed"))).toEqual([
      { queue: "notifications", name: "completed", data: { caseFileId: 7 }, jobId: "completed-e1" },
    ]);
    for (const type of ["sign.signer.requestSent", "sign.signer.reminderSent", "sign.signer.undeliverable", "sign.signer.transientBounce"]) {
      expect(hasInternalReactions(type)).toBe(false);
    }
  });
});

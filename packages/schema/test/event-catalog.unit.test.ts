import { EVENT_CATALOG, EVENT_TYPES, caseFileEvent, signerEvent, splitEventType, testEvent, type EventType } from "../src";

describe("the event catalog", () => {
  it("has an entry for every event type, whose topic is the type's own", () => {
    expect(Object.keys(EVENT_CATALOG).sort()).toEqual([...EVENT_TYPES].sort());
    for (const t of EVENT_TYPES) expect(EVENT_CATALOG[t as EventType].topic).toBe(splitEventType(t).topic);
  });

  it("builds each kind of event with a payload its schema accepts", () => {
    const cf = { id: 7, customerId: 3 };
    const built = [
      caseFileEvent(cf, 5, "sign.casefile.completed"),
      signerEvent(cf, 1, 12, "sign.signer.signed"),
      testEvent(3, "hello", "8c4a6f0e-0000-4000-8000-000000000000"),
    ];
    for (const e of built) {
      expect(EVENT_CATALOG[e.eventType].payload.safeParse(e.payload).success).toBe(true);
      expect(e.topic).toBe(EVENT_CATALOG[e.eventType].topic);
      expect(e.customerId).toBe(3);
    }
    expect(built[0]).toEqual({ customerId: 3, topic: "casefile", eventType: "sign.casefile.completed", payload: { id: 7, status: 5 } });
    expect(built[1]).toEqual({ customerId: 3, topic: "signer", eventType: "sign.signer.signed", payload: { id: 12, caseFile: { id: 7, status: 1 } } });
    expect(testEvent(3, "x")).not.toHaveProperty("targetSubscriptionId");
  });
});

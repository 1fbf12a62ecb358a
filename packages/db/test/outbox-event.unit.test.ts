import { EVENT_CATALOG, caseFileEvent, signerEvent, testEvent } from "@esign/schema";
import type { EventTransaction, OutboxEvent } from "../src/outbox";
import { emitEvent, serializeEvents } from "../src/outbox";

/*
 * Events enter the outbox typed: an OutboxEvent is the event catalog's (packages/schema), so an event
 * type outside the catalog, or a payload another type has, fails the compiler (`pnpm typecheck`,
 * which test/static/typecheck.unit.test.ts runs: an `@ts-expect-error` below that no longer finds an
 * error fails it too).
 */

const cf = { id: 7, customerId: 3 };

describe("outbox events", () => {
  it("are the catalog's: its types, topics and payloads, and nothing else", () => {
    const events: OutboxEvent[] = [
      caseFileEvent(cf, 5, "sign.casefile.completed"),
      signerEvent(cf, 5, 12, "sign.signer.finalized"),
      testEvent(3, "hello", "8c4a6f0e-0000-4000-8000-000000000000"),
    ];
    // @ts-expect-error: not an event type of the catalog
    const unknownType: OutboxEvent = { customerId: 3, topic: "casefile", eventType: "sign.casefile.archived", payload: { id: 7, status: 5 } };
    // @ts-expect-error: a case file event's payload is {id, status}
    const wrongPayload: OutboxEvent = { customerId: 3, topic: "casefile", eventType: "sign.casefile.completed", payload: "done" };
    // @ts-expect-error: emitEvent takes an event, not a type name and a payload of one's own
    const emitLoose = (tx: EventTransaction) => emitEvent(tx, { customerId: 3, topic: "signer", eventType: "signed", payload: {} });
    expect(typeof emitLoose).toBe("function");

    for (const e of events) expect(EVENT_CATALOG[e.eventType].payload.safeParse(e.payload).success).toBe(true);
    // What the compiler refuses is what the catalog refuses at run time too.
    expect(unknownType.eventType in EVENT_CATALOG).toBe(false);
    expect(EVENT_CATALOG[wrongPayload.eventType].payload.safeParse(wrongPayload.payload).success).toBe(false);
  });

  it("are written as the catalog built them: type, topic, JSON payload, target", () => {
    const [completed, test] = serializeEvents([caseFileEvent(cf, 5, "sign.casefile.completed"), testEvent(3, "hello", "8c4a6f0e-0000-4000-8000-000000000000")]);
    expect(completed).toMatchObject({
      customerId: 3,
      topic: "casefile",
      eventType: "sign.casefile.completed",
      payloadJson: '{"id":7,"status":5}',
      targetSubscriptionId: null,
    });
    expect(test).toMatchObject({
      topic: "subscription",
      eventType: "webhook.subscription.test",
      payloadJson: '"hello"',
      targetSubscriptionId: "8c4a6f0e-0000-4000-8000-000000000000",
    });
    expect(completed!.id).not.toBe(test!.id);
  });
});

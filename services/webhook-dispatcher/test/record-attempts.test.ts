import { randomUUID } from "node:crypto";
import { DELIVERY_STATE, retryDelayMs } from "@esign/webhooks";
import { recordAttempt, recordAttempts, type AttemptToRecord } from "../src/domain/record-attempt";
import type { SendResult } from "../src/domain/send-webhook";
import { createWorld, type World } from "../../../test/support/webhook-world";

const failure: SendResult = { outcome: "failure", cause: "non_2xx", httpStatus: 500, durationMs: 3 };
const success: SendResult = { outcome: "success", cause: "ok", httpStatus: 204, durationMs: 2 };

let world: World;
beforeAll(async () => {
  world = await createWorld("record_attempts");
});
afterAll(async () => world?.close());

/** A pending delivery that has had no attempt yet, of a new event to a new subscription. */
async function newDelivery(): Promise<Omit<AttemptToRecord, "result" | "now">> {
  const customer = await world.customer();
  const sub = await world.subscribe(customer, "http://127.0.0.1:9/never-called");
  const eventId = await world.emit(customer.customerId);
  const delivery = await world.db.webhookDelivery.create({
    data: { id: randomUUID(), eventId, subscriptionId: sub.id, state: DELIVERY_STATE.pending, nextAttemptAt: new Date() },
  });
  return { deliveryId: delivery.id, eventId, subscriptionId: sub.id, attempt: 1, ladderScale: 1, expected: { state: DELIVERY_STATE.pending, ladderStep: 0 } };
}

describe("recordAttempts", () => {
  it("records a batch of different deliveries in one go, each moved along its own ladder", async () => {
    const [a, b] = [await newDelivery(), await newDelivery()];
    const now = new Date();
    const recorded = await recordAttempts(world.db, [
      { ...a, result: success, now },
      { ...b, result: failure, now },
    ]);
    expect(recorded[0]).toEqual({ kind: "succeeded" });
    expect(recorded[1]).toEqual({ kind: "retry", nextAttempt: 2, nextAttemptAt: new Date(now.getTime() + retryDelayMs(1, 1)!) });
    const rows = await world.db.webhookDelivery.findMany({ where: { id: { in: [a.deliveryId, b.deliveryId] } } });
    expect(rows.find((r) => r.id === a.deliveryId)).toMatchObject({ state: DELIVERY_STATE.succeeded, attempts: 1, nextAttemptAt: null });
    expect(rows.find((r) => r.id === b.deliveryId)).toMatchObject({ state: DELIVERY_STATE.pending, attempts: 1, ladderStep: 1 });
    const attempts = await world.db.webhookAttempt.findMany({ where: { deliveryId: { in: [a.deliveryId, b.deliveryId] } } });
    expect(attempts.map((x) => [x.deliveryId === a.deliveryId ? "a" : "b", x.attemptNumber, x.outcome, x.httpStatus]).sort()).toEqual([
      ["a", 1, "success", 204],
      ["b", 1, "failure", 500],
    ]);
  });

  it("records one of two copies of the same attempt in a batch and calls the other a duplicate", async () => {
    const d = await newDelivery();
    const now = new Date();
    const recorded = await recordAttempts(world.db, [
      { ...d, result: failure, now },
      { ...d, result: failure, now },
    ]);
    expect(recorded.map((r) => r.kind)).toEqual(["retry", "duplicate"]);
    expect(await world.db.webhookAttempt.count({ where: { deliveryId: d.deliveryId } })).toBe(1);
    expect(await world.db.webhookDelivery.findUniqueOrThrow({ where: { id: d.deliveryId } })).toMatchObject({ attempts: 1, ladderStep: 1 });
  });

  it("gathers concurrent recordAttempt calls into one batch and still answers each its own outcome", async () => {
    const ds = await Promise.all([newDelivery(), newDelivery(), newDelivery()]);
    const now = new Date();
    const recorded = await Promise.all(ds.map((d, i) => recordAttempt(world.db, { ...d, result: i === 1 ? failure : success, now })));
    expect(recorded.map((r) => r.kind)).toEqual(["succeeded", "retry", "succeeded"]);
  });

  it("fails only the call whose locked transaction fails; the rest of its batch keeps its outcome", async () => {
    const [good, bad] = [await newDelivery(), await newDelivery()];
    const now = new Date();
    const [a, b] = await Promise.allSettled([
      recordAttempt(world.db, { ...good, result: success, now }),
      // No expected state: the locked transaction decides, and fails (durationMs beyond an int).
      recordAttempt(world.db, { ...bad, expected: undefined, result: { ...failure, durationMs: 2 ** 40 }, now }),
    ]);
    expect(a).toEqual({ status: "fulfilled", value: { kind: "succeeded" } });
    expect(b.status).toBe("rejected");
    expect(await world.db.webhookDelivery.findUniqueOrThrow({ where: { id: bad.deliveryId } })).toMatchObject({ state: DELIVERY_STATE.pending, attempts: 0 });
  });

  it("leaves a row that changed since the attempt read it to the locked transaction", async () => {
    const d = await newDelivery();
    // Disabled and suspended meanwhile: the one-statement path no longer matches; the transaction decides.
    await world.db.webhookDelivery.update({ where: { id: d.deliveryId }, data: { state: DELIVERY_STATE.suspended } });
    const [recorded] = await recordAttempts(world.db, [{ ...d, result: failure, now: new Date() }]);
    expect(recorded).toEqual({ kind: "stopped", state: DELIVERY_STATE.suspended });
    expect(await world.db.webhookAttempt.count({ where: { deliveryId: d.deliveryId } })).toBe(1);
  });
});

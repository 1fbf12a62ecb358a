import { randomUUID } from "node:crypto";
import { dispatchJobId } from "../src";

describe("dispatchJobId", () => {
  const ids = [randomUUID(), randomUUID(), randomUUID()];

  it("is the event's own id for a batch of one", () => {
    expect(dispatchJobId([ids[0]!])).toBe(ids[0]);
  });

  it("is the same for the same events in the same order (a re-claimed batch dedupes in BullMQ)", () => {
    expect(dispatchJobId([...ids])).toBe(dispatchJobId([...ids]));
    expect(dispatchJobId(ids)).toMatch(/^batch-[0-9a-f]{40}$/);
  });

  it("differs for another set or order of events", () => {
    expect(dispatchJobId(ids)).not.toBe(dispatchJobId(ids.slice(0, 2)));
    expect(dispatchJobId(ids)).not.toBe(dispatchJobId([...ids].reverse()));
  });

  it("never contains ':' (reserved by BullMQ)", () => {
    for (const batch of [ids, ids.slice(0, 1), ids.slice(1)]) expect(dispatchJobId(batch)).not.toContain(":");
  });
});

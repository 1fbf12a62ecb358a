import { caseFileEvent, signerEvent, testEvent } from "@esign/schema";
import { emitEvents, recordLog } from "../src";
import { createWorld, type World } from "../../../test/support/webhook-world";

// The event log (Penneo's `log` resource): every webhook event of a case file or signer is an entry,
// written in the same statement as its outbox row; entries without a webhook event come from recordLog.
let world: World;
beforeAll(async () => {
  world = await createWorld("event_log");
});
afterAll(async () => world?.close());

const entriesOf = (caseFileId: number) => world.db.logEntry.findMany({ where: { caseFileId }, orderBy: { id: "asc" } });

describe("the event log", () => {
  it("writes an entry for each case file and signer event, with who and from where, and none for the test event", async () => {
    const { customerId } = await world.customer();
    const cf = { id: 900_001, customerId };
    const audit = { actor: "signer" as const, ip: "203.0.113.7", userAgent: "Mozilla/5.0 test" };
    await world.db.$transaction((tx) =>
      emitEvents(tx, [
        signerEvent(cf, 1, 41, "sign.signer.opened", audit),
        signerEvent(cf, 1, 41, "sign.signer.signed", audit),
        signerEvent(cf, 1, 41, "sign.signer.signedWithImageUploadAndNAP", audit),
        caseFileEvent(cf, 5, "sign.casefile.completed"),
        testEvent(customerId, "hello"),
      ]),
    );
    const entries = await entriesOf(cf.id);
    expect(entries.map((e) => [e.signerId, e.code, e.event, e.actor, e.ip, e.userAgent])).toEqual([
      [41, 3, "opened", "signer", "203.0.113.7", "Mozilla/5.0 test"],
      [41, 4, "signed", "signer", "203.0.113.7", "Mozilla/5.0 test"],
      [null, 103, "completed", "system", null, null],
    ]);
    expect(entries.every((e) => e.customerId === customerId)).toBe(true);
  });

  it("writes entries that are no webhook event, with their detail, in the caller's transaction", async () => {
    const { customerId } = await world.customer();
    const caseFileId = 900_002;
    await world.db.$transaction((tx) =>
      recordLog(tx, [
        { customerId, caseFileId, event: "sent", audit: { actor: "user", userId: 7, ip: "198.51.100.1" } },
        { customerId, caseFileId, signerId: 42, event: "edited", audit: { actor: "user", userId: 7 }, detail: { fields: ["name", "email"] } },
      ]),
    );
    await expect(
      world.db.$transaction(async (tx) => {
        await recordLog(tx, [{ customerId, caseFileId, event: "deleted" }]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const entries = await entriesOf(caseFileId);
    expect(entries.map((e) => [e.signerId, e.code, e.event, e.actor, e.userId, e.detail])).toEqual([
      [null, 101, "sent", "user", 7, null],
      [42, 12, "edited", "user", 7, { fields: ["name", "email"] }],
    ]);
  });
});

import { randomUUID } from "node:crypto";
import { closeTestDb, testDb } from "../../../test/support/api";
import { createCaseFile, eboksFiles, eventsOf, eventually, startHarness, textOf, typesOf, type Harness } from "../../../test/support/notifier-harness";

// One reminderInterval "day" lasts this long in these tests.
const DAY_MS = 1000;
let h: Harness;

beforeAll(async () => {
  h = await startHarness("reminders", { REMINDER_DAY_MS: String(DAY_MS) });
});

afterAll(async () => {
  await h?.stop();
  await closeTestDb();
});

const request = (signerId: number) => h.enqueue("signing-request", { signerId, eventId: randomUUID() });
const ofType =
  (type: string) =>
  <E extends { eventType: string }>(events: E[]) =>
    events.filter((e) => e.eventType === type);
const remindersSent = async (id: number) => (await testDb().signer.findUniqueOrThrow({ where: { id } })).remindersSent;

describe("notifier: reminders", () => {
  it("reminds a pending signer every reminderInterval, and stops once the signer has signed", async () => {
    const f = await createCaseFile({
      signers: [{ notification: { reminderInterval: 1, reminderEmailSubject: "Friendly reminder: your contract" } }, {}],
    });
    const [s, noInterval] = f.signers;
    expect(await h.finished(await request(s!.id))).toBe("completed");
    expect(await h.finished(await request(noInterval!.id))).toBe("completed");

    const two = await eventually(
      () => eventsOf(f.customerId, s!.id),
      (e) => ofType("sign.signer.reminderSent")(e).length >= 2,
      15_000,
      "two reminders",
    );
    // Signed right after the second reminder: the third, due a "day" later, must not go out.
    await testDb().signer.update({ where: { id: s!.id }, data: { status: 4, signedAt: new Date() } });

    const [sent] = ofType("sign.signer.requestSent")(two);
    const [r1, r2] = ofType("sign.signer.reminderSent")(two);
    const gap1 = r1!.occurredAt.getTime() - sent!.occurredAt.getTime();
    const gap2 = r2!.occurredAt.getTime() - r1!.occurredAt.getTime();
    for (const gap of [gap1, gap2]) {
      expect(gap).toBeGreaterThanOrEqual(DAY_MS - 50);
      expect(gap).toBeLessThan(DAY_MS + 2500);
    }
    expect(r1!.payload).toEqual({ id: s!.id, caseFile: { id: f.caseFileId, status: 1 } });

    const mails = h.sink.messagesTo(s!.email!);
    expect(mails.map((m) => m.subject)).toEqual([
      `Please sign: Employment contract ${f.tag}`,
      "Friendly reminder: your contract",
      "Friendly reminder: your contract",
    ]);
    expect(textOf(mails[1]!)).toContain(`This is a reminder: Acme ${f.tag} is still waiting for your signature`);
    expect(textOf(mails[1]!)).toContain(s!.link);
    // Reminders carry no open-tracking image: requestOpened is about the request itself.
    expect(mails[1]!.html).not.toContain("/t/");

    await new Promise((r) => setTimeout(r, 3 * DAY_MS));
    expect(typesOf(await eventsOf(f.customerId, s!.id))).toEqual(["sign.signer.requestSent", "sign.signer.reminderSent", "sign.signer.reminderSent"]);
    expect(h.sink.messagesTo(s!.email!)).toHaveLength(3);
    expect(await remindersSent(s!.id)).toBe(2);
    const rows = await testDb().notification.findMany({ where: { signerId: s!.id }, orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => r.dedupeKey).slice(1)).toEqual([`reminder:${s!.id}:1`, `reminder:${s!.id}:2`]);
    // The chain ended: no reminder job is waiting for this signer.
    const delayed = await h.producer.queue("notifications").getDelayed();
    expect(delayed.filter((j) => j.data.signerId === s!.id)).toHaveLength(0);

    // A copy of an old reminder job sends nothing again.
    expect(await h.finished(await h.enqueue("reminder", { signerId: s!.id, sequence: 1 }))).toBe("completed");
    expect(h.sink.messagesTo(s!.email!)).toHaveLength(3);

    // The signer without a reminderInterval got the request only.
    expect(typesOf(await eventsOf(f.customerId, noInterval!.id))).toEqual(["sign.signer.requestSent"]);
    expect(h.sink.messagesTo(noInterval!.email!)).toHaveLength(1);
  });

  it("stops when the case file is no longer pending, and sends no reminder for a request that never went out", async () => {
    const f = await createCaseFile({ signers: [{ notification: { reminderInterval: 1 } }, { notification: { reminderInterval: 1 } }] });
    const [s, neverRequested] = f.signers;
    expect(await h.finished(await request(s!.id))).toBe("completed");
    await testDb().caseFile.update({ where: { id: f.caseFileId }, data: { status: 7, expiredAt: new Date() } });

    // A reminder job for a signer whose request was never sent (e.g. queued by hand): nothing.
    expect(await h.finished(await h.enqueue("reminder", { signerId: neverRequested!.id, sequence: 1 }))).toBe("completed");

    await new Promise((r) => setTimeout(r, 2.5 * DAY_MS));
    expect(typesOf(await eventsOf(f.customerId))).toEqual(["sign.signer.requestSent"]);
    expect(h.sink.messagesTo(s!.email!)).toHaveLength(1);
    expect(h.sink.messagesTo(neverRequested!.email!)).toHaveLength(0);
  });

  it("reminds an e-Boks signer through the mailbox channel, in the signer's own reminder text", async () => {
    const f = await createCaseFile({
      language: "da",
      signers: [{ channel: "eboks", cpr: "0303701234", notification: { reminderInterval: 1, reminderEmailText: "Husk at underskrive kontrakten." } }],
    });
    const [s] = f.signers;
    expect(await h.finished(await request(s!.id))).toBe("completed");
    await eventually(
      () => eventsOf(f.customerId, s!.id),
      (e) => ofType("sign.signer.reminderSent")(e).length >= 1,
      10_000,
      "one reminder",
    );
    await testDb().signer.update({ where: { id: s!.id }, data: { status: 2, rejectedAt: new Date() } });

    const files = (await eboksFiles(h.eboksDir)).filter((m) => m.recipient.name === s!.name);
    expect(files.map((m) => m.subject)).toEqual([
      `Underskriv venligst: Employment contract ${f.tag}`,
      `Påmindelse: underskriv venligst Employment contract ${f.tag}`,
    ]);
    expect(files[1]).toMatchObject({ recipient: { cpr: "0303701234" }, language: "da", link: s!.link });
    expect(files[1]!.body).toContain("Husk at underskrive kontrakten.");
    expect(files[1]!.body).toContain(s!.link);

    await new Promise((r) => setTimeout(r, 2 * DAY_MS));
    expect(ofType("sign.signer.reminderSent")(await eventsOf(f.customerId, s!.id))).toHaveLength(1);
  });
});

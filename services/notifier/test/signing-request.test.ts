import { randomUUID } from "node:crypto";
import { trackingId } from "@esign/db";
import { TEST_ENCRYPTION_KEY, closeTestDb, testDb } from "../../../test/support/api";
import {
  PUBLIC_BASE_URL,
  createCaseFile,
  eboksFiles,
  eventsOf,
  eventually,
  startHarness,
  textOf,
  typesOf,
  type Harness,
} from "../../../test/support/notifier-harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness("request");
});

afterAll(async () => {
  await h?.stop();
  await closeTestDb();
});

const request = (signerId: number, eventId = randomUUID()) => h.enqueue("signing-request", { signerId, eventId });
const signerStatus = async (id: number) => (await testDb().signer.findUniqueOrThrow({ where: { id } })).status;

describe("notifier: signing-request by email", () => {
  it("mails the signing link in the default English HTML template with the open-tracking image, from the case file's senderName, once", async () => {
    const f = await createCaseFile({
      senderName: "Acme Legal Department",
      signers: [{}],
      documents: [
        { title: "Employment agreement", name: "agreement.pdf" },
        { title: "Staff handbook", name: "handbook.pdf", signable: false },
      ],
    });
    const [s] = f.signers;
    const eventId = randomUUID();
    const jobId = await request(s!.id, eventId);
    const msg = await h.sink.waitFor((m) => m.to.includes(s!.email!), 20_000);
    expect(await h.finished(jobId)).toBe("completed");

    expect(msg.from).toBe("no-reply@esign.local");
    expect(msg.headers.from).toBe("Acme Legal Department <no-reply@esign.local>");
    expect(msg.subject).toBe(`Please sign: Employment contract ${f.tag}`);
    expect(textOf(msg)).toContain(`Dear ${s!.name},`);
    expect(textOf(msg)).toContain(`Acme Legal Department has sent you documents to sign: "Employment contract ${f.tag}".`);
    expect(textOf(msg)).toContain("- Employment agreement\n- Staff handbook");
    expect(textOf(msg)).toContain(s!.link);
    expect(msg.html).toContain(`<html lang="en">`);
    expect(msg.html).toContain(`<a href="${s!.link}"`);
    expect(msg.html).toContain(">Review and sign</a>");
    expect(msg.html).toContain(`<img src="${PUBLIC_BASE_URL}/t/${trackingId(s!.id, TEST_ENCRYPTION_KEY)}.gif" width="1" height="1"`);
    expect(msg.headers["x-esign-signer-id"]).toBe(String(s!.id));

    const events = await eventsOf(f.customerId);
    expect(typesOf(events)).toEqual(["sign.signer.requestSent"]);
    expect(events[0]!.payload).toEqual({ id: s!.id, caseFile: { id: f.caseFileId, status: 1 } });
    const rows = await testDb().notification.findMany({ where: { signerId: s!.id } });
    expect(rows).toMatchObject([{ dedupeKey: `request:${s!.id}:${eventId}`, kind: "signing_request", channel: "email", recipient: s!.email, status: "sent" }]);

    // The same activation again, twice at once (a relay publishing twice, a manual retry): nothing more.
    const copies = await Promise.all([request(s!.id, eventId), request(s!.id, eventId)]);
    expect(await Promise.all(copies.map((j) => h.finished(j)))).toEqual(["completed", "completed"]);
    expect(h.sink.messagesTo(s!.email!)).toHaveLength(1);
    expect(typesOf(await eventsOf(f.customerId))).toEqual(["sign.signer.requestSent"]);
    expect(await testDb().notification.count({ where: { signerId: s!.id } })).toBe(1);
  });

  it("uses the signer's own subject and text; the text format carries the link, no HTML part and no tracking", async () => {
    const f = await createCaseFile({
      signers: [
        { notification: { emailFormat: "text", emailSubject: "Your contract is ready", emailText: "Hi Ann,\n\nplease sign the contract today.\nThanks!" } },
      ],
    });
    const [s] = f.signers;
    expect(await h.finished(await request(s!.id))).toBe("completed");
    const msg = await h.sink.waitFor((m) => m.to.includes(s!.email!));
    expect(msg.subject).toBe("Your contract is ready");
    expect(textOf(msg)).toContain("Hi Ann,\n\nplease sign the contract today.\nThanks!");
    expect(textOf(msg)).not.toContain("Dear ");
    expect(textOf(msg)).toContain(`Open the documents and sign here:\n${s!.link}`);
    expect(msg.html).toBeUndefined();
    expect(msg.raw).not.toContain(`${PUBLIC_BASE_URL}/t/`);
    // Without senderName the sender is MAIL_FROM as configured.
    expect(msg.headers.from).toBe(`"E-Sign" <no-reply@esign.local>`);
    expect(typesOf(await eventsOf(f.customerId))).toEqual(["sign.signer.requestSent"]);
  });

  it("escapes the signer's own text in the HTML format and keeps its line breaks", async () => {
    const f = await createCaseFile({ signers: [{ notification: { emailFormat: "html", emailText: "Hello <b>Bo</b> & co,\nsee you" } }] });
    const [s] = f.signers;
    expect(await h.finished(await request(s!.id))).toBe("completed");
    const msg = await h.sink.waitFor((m) => m.to.includes(s!.email!));
    expect(msg.html).toContain("Hello &lt;b&gt;Bo&lt;/b&gt; &amp; co,<br>see you");
    expect(msg.html).not.toContain("<b>Bo</b>");
  });

  it("writes in the signer's language, else the case file's, else English: Danish, Swedish, English", async () => {
    const da = await createCaseFile({ language: "da", signers: [{ language: null }, { language: "en" }] });
    const sv = await createCaseFile({ language: null, signers: [{ language: "sv" }] });
    const jobs = [...da.signers, ...sv.signers].map((s) => request(s.id));
    for (const j of await Promise.all(jobs)) expect(await h.finished(j)).toBe("completed");

    const caseFileDa = await h.sink.waitFor((m) => m.to.includes(da.signers[0]!.email!));
    expect(caseFileDa.subject).toBe(`Underskriv venligst: Employment contract ${da.tag}`);
    expect(textOf(caseFileDa)).toContain(`Kære ${da.signers[0]!.name}`);
    expect(textOf(caseFileDa)).toContain("Åbn dokumenterne og underskriv her:");
    expect(caseFileDa.html).toContain(`<html lang="da">`);
    expect(caseFileDa.html).toContain(">Læs og underskriv</a>");

    // The signer's own language wins over the case file's.
    const signerEn = await h.sink.waitFor((m) => m.to.includes(da.signers[1]!.email!));
    expect(signerEn.subject).toBe(`Please sign: Employment contract ${da.tag}`);

    const swedish = await h.sink.waitFor((m) => m.to.includes(sv.signers[0]!.email!));
    expect(swedish.subject).toBe(`Dokument att signera: Employment contract ${sv.tag}`);
    expect(textOf(swedish)).toContain(`Hej ${sv.signers[0]!.name},`);
    expect(textOf(swedish)).toContain("Öppna dokumenten och signera här:");
    expect(swedish.html).toContain(`<html lang="sv">`);
    expect(swedish.html).toContain(">Granska och signera</a>");
  });

  it("never names the documents when the case file holds sensitive data", async () => {
    const f = await createCaseFile({ sensitiveData: true, signers: [{}], documents: [{ title: "Secret merger plan", name: "merger-plan.pdf" }] });
    const [s] = f.signers;
    expect(await h.finished(await request(s!.id))).toBe("completed");
    const msg = await h.sink.waitFor((m) => m.to.includes(s!.email!));
    for (const part of [msg.raw, textOf(msg), msg.html ?? ""]) {
      expect(part).not.toContain("Secret merger plan");
      expect(part).not.toContain("merger-plan");
    }
    expect(textOf(msg)).toContain("You will be asked to confirm your identity");
    expect(textOf(msg)).toContain(s!.link);
  });

  it("sends nothing to a signer who is not pending, or when the case file is not pending", async () => {
    const notPending = await createCaseFile({ signers: [{ status: 4 }, { status: 0 }, { status: 3 }] });
    const unsent = await createCaseFile({ status: 0, signers: [{ status: 1 }] });
    const jobs = await Promise.all([...notPending.signers, ...unsent.signers].map((s) => request(s.id)));
    for (const j of jobs) expect(await h.finished(j)).toBe("completed");
    for (const s of [...notPending.signers, ...unsent.signers]) expect(h.sink.messagesTo(s.email!)).toHaveLength(0);
    expect(await eventsOf(notPending.customerId)).toEqual([]);
    expect(await eventsOf(unsent.customerId)).toEqual([]);
  });

  it("a permanent refusal (550) makes the signer undeliverable without a retry", async () => {
    const f = await createCaseFile({ signers: [{}] });
    const [s] = f.signers;
    h.sink.rejectRecipient(s!.email!, 550, "5.1.1 Mailbox does not exist");
    try {
      const jobId = await request(s!.id);
      expect(await h.finished(jobId)).toBe("completed");
      expect((await h.producer.queue("notifications").getJob(jobId))?.attemptsMade).toBe(1);
    } finally {
      h.sink.acceptRecipient(s!.email!);
    }
    expect(await signerStatus(s!.id)).toBe(5);
    const events = await eventsOf(f.customerId);
    expect(typesOf(events)).toEqual(["sign.signer.undeliverable"]);
    expect(events[0]!.payload).toEqual({ id: s!.id, caseFile: { id: f.caseFileId, status: 1 } });
    const [row] = await testDb().notification.findMany({ where: { signerId: s!.id } });
    expect(row).toMatchObject({ status: "failed", kind: "signing_request", recipient: s!.email });
    expect(row!.error).toContain("550");
    // The next activation's job finds an undeliverable signer and leaves it alone.
    expect(await h.finished(await request(s!.id))).toBe("completed");
    expect(typesOf(await eventsOf(f.customerId))).toEqual(["sign.signer.undeliverable"]);
  });

  it("a signer on the email channel without an address is undeliverable", async () => {
    const f = await createCaseFile({ signers: [{ email: null }] });
    const [s] = f.signers;
    expect(await h.finished(await request(s!.id))).toBe("completed");
    expect(await signerStatus(s!.id)).toBe(5);
    expect(typesOf(await eventsOf(f.customerId))).toEqual(["sign.signer.undeliverable"]);
    expect(await testDb().notification.findMany({ where: { signerId: s!.id } })).toMatchObject([{ status: "failed", recipient: "(none)" }]);
  });

  it("a temporary refusal (451) is reported as transientBounce, and the retry delivers the request", async () => {
    const f = await createCaseFile({ signers: [{}] });
    const [s] = f.signers;
    h.sink.rejectRecipient(s!.email!, 451, "4.2.0 Mailbox busy, try again later");
    const jobId = await request(s!.id);
    try {
      await h.sink.waitForRejection(s!.email!, 20_000);
      await eventually(
        () => eventsOf(f.customerId),
        (e) => e.length > 0,
        10_000,
        "transientBounce",
      );
      expect(typesOf(await eventsOf(f.customerId))).toEqual(["sign.signer.transientBounce"]);
      expect(await testDb().notification.count({ where: { signerId: s!.id } })).toBe(0);
    } finally {
      h.sink.acceptRecipient(s!.email!);
    }
    // The catalog's backoff (5 s) brings the retry.
    const msg = await h.sink.waitFor((m) => m.to.includes(s!.email!), 30_000);
    expect(textOf(msg)).toContain(s!.link);
    expect(await h.finished(jobId)).toBe("completed");
    expect((await h.producer.queue("notifications").getJob(jobId))?.attemptsMade).toBe(2);
    expect(typesOf(await eventsOf(f.customerId))).toEqual(["sign.signer.transientBounce", "sign.signer.requestSent"]);
    expect(await signerStatus(s!.id)).toBe(1);
    expect(h.sink.messagesTo(s!.email!)).toHaveLength(1);
  });
});

describe("notifier: the requestSent event and the outbox relay", () => {
  // The relay has nothing to do for a signer event of a message that no subscription wants (no
  // internal reactions): it is written relayed. One a subscription wants is left for the relay to
  // fan out (issue 25). The NOTIFY that goes with it is tested in outbox-relay's drain-outbox test,
  // on a database of its own.
  const sent = async (customerId: number, signerId: number) => {
    const jobId = await request(signerId);
    expect(await h.finished(jobId)).toBe("completed");
    const rows = await testDb().event.findMany({ where: { customerId, eventType: "sign.signer.requestSent" } });
    expect(rows).toHaveLength(1);
    return rows[0]!;
  };

  it("is written relayed when no subscription wants it", async () => {
    const f = await createCaseFile({ signers: [{}] });
    const event = await sent(f.customerId, f.signers[0]!.id);
    expect(event.relayedAt).not.toBeNull();
    // Relayed by its own insert, not by a relay's drain later.
    expect(Math.abs(event.relayedAt!.getTime() - event.occurredAt.getTime())).toBeLessThan(1000);
  });

  it("is left for the relay when a subscription of the customer wants it", async () => {
    const f = await createCaseFile({ signers: [{}] });
    const owner = await testDb().user.findFirstOrThrow({ where: { customerId: f.customerId } });
    await testDb().webhookSubscription.create({
      data: {
        id: randomUUID(),
        customerId: f.customerId,
        createdByUserId: owner.id,
        endpoint: "https://hooks.example/in",
        eventTypes: ["sign.signer.requestSent"],
        secretEnc: "x",
      },
    });
    expect((await sent(f.customerId, f.signers[0]!.id)).relayedAt).toBeNull();
  });
});

describe("notifier: signing-request by e-Boks (simulator)", () => {
  it("delivers to the simulator with the signer's name, cpr or cvr, and the signer's, else the case file's, else Danish language", async () => {
    const own = await createCaseFile({ language: "sv", signers: [{ channel: "eboks", cpr: "0101901234", language: "en" }] });
    const fromCaseFile = await createCaseFile({ language: "sv", signers: [{ channel: "eboks", cpr: "0202801234" }] });
    const danish = await createCaseFile({ language: null, signers: [{ channel: "eboks", cvr: "12345678:ab" }] });
    const all = [own, fromCaseFile, danish];
    const eventIds = all.map(() => randomUUID());
    const jobs = await Promise.all(all.map((f, i) => request(f.signers[0]!.id, eventIds[i])));
    for (const j of jobs) expect(await h.finished(j)).toBe("completed");

    const files = await eboksFiles(h.eboksDir);
    const fileOf = (f: (typeof all)[number]) => {
      const hits = files.filter((m) => m.recipient.name === f.signers[0]!.name);
      expect(hits).toHaveLength(1);
      return hits[0]!;
    };
    const a = fileOf(own);
    expect(a).toMatchObject({ simulator: true, recipient: { name: own.signers[0]!.name, cpr: "0101901234" }, language: "en", link: own.signers[0]!.link });
    expect(a.recipient.cvr).toBeUndefined();
    expect(a.subject).toBe(`Please sign: Employment contract ${own.tag}`);
    expect(a.body).toContain(own.signers[0]!.link);
    expect(a.notice).toMatch(/SIMULATOR/);

    const b = fileOf(fromCaseFile);
    expect(b).toMatchObject({ recipient: { name: fromCaseFile.signers[0]!.name, cpr: "0202801234" }, language: "sv" });
    expect(b.subject).toBe(`Dokument att signera: Employment contract ${fromCaseFile.tag}`);
    expect(b.body).toContain("Öppna dokumenten och signera här:");

    const c = fileOf(danish);
    expect(c).toMatchObject({ recipient: { name: danish.signers[0]!.name, cvr: "12345678:ab" }, language: "da" });
    expect(c.recipient.cpr).toBeUndefined();
    expect(c.subject).toBe(`Underskriv venligst: Employment contract ${danish.tag}`);
    expect(c.body).toContain(`Kære ${danish.signers[0]!.name}`);

    for (const f of all) {
      const events = await eventsOf(f.customerId);
      expect(typesOf(events)).toEqual(["sign.signer.requestSent"]);
    }
    const row = await testDb().notification.findFirstOrThrow({ where: { signerId: own.signers[0]!.id } });
    expect(row).toMatchObject({ channel: "eboks", status: "sent", recipient: "cpr:010190-****" });
    expect(h.sink.messages.filter((m) => all.some((f) => m.subject.includes(f.tag)))).toHaveLength(0);
    expect(h.notifier.logs).toContain("e-Boks SIMULATOR");
    expect(h.notifier.logs).not.toContain("0101901234");

    // A duplicate job writes no second file.
    expect(await h.finished(await request(own.signers[0]!.id, eventIds[0]))).toBe("completed");
    expect((await eboksFiles(h.eboksDir)).filter((m) => m.recipient.name === own.signers[0]!.name)).toHaveLength(1);
  });

  it("an e-Boks signer with neither cpr nor cvr is undeliverable", async () => {
    const f = await createCaseFile({ signers: [{ channel: "eboks" }] });
    const [s] = f.signers;
    expect(await h.finished(await request(s!.id))).toBe("completed");
    expect(await signerStatus(s!.id)).toBe(5);
    expect(typesOf(await eventsOf(f.customerId))).toEqual(["sign.signer.undeliverable"]);
  });
});

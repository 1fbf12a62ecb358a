import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { verifyWebhook } from "@esign/webhook-verify";
import { createCustomer, type NewCustomer } from "@esign/accounts";
import { TEST_ENCRYPTION_KEY, getToken } from "../support/api";
import { eventually } from "../support/eventually";
import { makePdf } from "../support/pdf";
import { pdfPageCount, pdfsig } from "../support/poppler";
import { startReceiver, type Receiver } from "../support/receiver";
import { startSmtpSink, type SmtpSink, type SinkMessage } from "../support/smtp-sink";
import { createCase, getAs, postJson } from "../support/signing-api";
import { subscriptionClient } from "../support/subscription-api";
import { startSystem, type System } from "../support/system";
import { createWorld, type World } from "../support/webhook-world";

/*
 * Issue 4's whole journey through the four running services: requests by real SMTP, signing over
 * HTTP, rounds, finalization, completion mails, and every event in order, also as signed webhooks.
 */
let system: System;
let world: World;
let smtp: SmtpSink;
let receiver: Receiver;
let contract: Buffer;
let appendix: Buffer;

beforeAll(async () => {
  smtp = await startSmtpSink();
  receiver = await startReceiver();
  // A database of its own: the relay publishes every unrelayed event of its database, and other
  // files leave events behind (case files created without a dispatcher running).
  world = await createWorld("journey");
  system = await startSystem(
    ["casefile-worker", "notifier", "webhook-dispatcher"],
    world.env({
      SMTP_URL: smtp.url,
      REMINDER_DAY_MS: "1500",
    }),
    { JOB_POLL_LIMIT_PER_MINUTE: "0" },
  );
  [contract, appendix] = await Promise.all([makePdf("Employment contract", 2), makePdf("Appendix")]);
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await smtp?.stop();
  await receiver?.close();
  await world?.close();
});

const testDb = () => world.db;
const newCustomer = (input: Partial<NewCustomer> = {}) =>
  createCustomer(world.db, { name: `Journey ${Math.random().toString(36).slice(2, 8)}`, ...input }, TEST_ENCRYPTION_KEY);

const files = () => [
  { name: "contract.pdf", content: contract },
  { name: "appendix.pdf", content: appendix },
];

const linkIn = (m: SinkMessage) => /http:\/\/127\.0\.0\.1:\d+\/sign\/[A-Za-z0-9_-]{43}/.exec(`${m.text}\n${m.html ?? ""}`)?.[0];
const pixelIn = (m: SinkMessage) => /http:\/\/127\.0\.0\.1:\d+\/t\/[0-9]+\.[A-Za-z0-9_-]{22}\.gif/.exec(m.html ?? "")?.[0];

async function eventTypes(caseFileId: number): Promise<string[]> {
  const events = await testDb().event.findMany({
    where: { OR: [{ payload: { path: ["id"], equals: caseFileId }, topic: "casefile" }, { payload: { path: ["caseFile", "id"], equals: caseFileId } }] },
    orderBy: { seq: "asc" },
  });
  return events.map((e) => `${e.eventType}${e.topic === "signer" ? `#${(e.payload as { id: number }).id}` : ""}`);
}

describe("two signers in two rounds, end to end", () => {
  it("requests, signs, advances, finalizes, mails and emits exactly the expected events", async () => {
    const creds = await newCustomer({ adminEmail: "owner@example.com" });
    const token = await getToken(system.gateway.url, creds);
    const created = await subscriptionClient(system.gateway.url, token).create({
      eventTypes: ["sign.casefile.completed", "sign.signer.signed"],
      endpoint: receiver.url("/hook"),
    });
    expect(created.status).toBe(201);
    const sub = created.body;

    const journey = await createCase(
      system.gateway.url,
      token,
      {
        caseFile: {
          title: "Employment contract",
          senderName: "Acme HR",
          signers: [
            {
              name: "Alice Andersen",
              email: "alice@example.com",
              role: "Employee",
              signOrder: 0,
              enableInsecureSigning: true,
              insecureSigningMethods: ["text"],
            },
            {
              name: "Bob Berg",
              email: "bob@example.com",
              role: "Manager",
              signOrder: 1,
              enableInsecureSigning: true,
              insecureSigningMethods: ["draw", "text"],
            },
          ],
          documents: [
            { title: "Contract", name: "contract.pdf", roles: ["Employee", "Manager"] },
            { title: "Appendix", name: "appendix.pdf", signable: false },
          ],
          ccRecipients: [{ name: "HR archive", email: "archive@example.com" }],
        },
      },
      files(),
    );
    const alice = journey.links["Alice Andersen"]!;
    const bob = journey.links["Bob Berg"]!;
    expect(journey.status).toBe(1);

    // Round 1: only Alice is asked.
    const aliceMail = await smtp.waitFor((m) => m.to.includes("alice@example.com") && linkIn(m) === alice.url);
    expect(linkIn(aliceMail)).toBe(alice.url);
    expect(aliceMail.headers.from).toContain("Acme HR");
    expect(smtp.messagesTo("bob@example.com")).toHaveLength(0);
    // The notifier records requestSent right after the SMTP server accepted the mail; a person opens it later.
    await eventually(async () => (await eventTypes(journey.caseFileId)).includes(`sign.signer.requestSent#${alice.signerId}`));
    const pixel = pixelIn(aliceMail);
    expect(pixel).toBeDefined();
    expect((await fetch(pixel!)).headers.get("content-type")).toBe("image/gif");

    const alicePage = await getAs(alice.url);
    expect(alicePage.status).toBe(200);
    expect(alicePage.body.documents?.map((d) => [d.name, d.maySign])).toEqual([
      ["contract.pdf", true],
      ["appendix.pdf", false],
    ]);
    const bobTooEarly = await postJson(`${bob.url}/sign`, { method: "text", value: "Bob Berg" });
    expect(bobTooEarly.status).toBe(409);
    expect((await postJson(`${alice.url}/sign`, { method: "text", value: "Alice Andersen" })).status).toBe(200);

    // Round 2 follows through the outbox: the worker advances, the notifier mails Bob.
    const bobMail = await smtp.waitFor((m) => m.to.includes("bob@example.com") && linkIn(m) === bob.url);
    expect(linkIn(bobMail)).toBe(bob.url);
    // As for Alice: requestSent is written right after the SMTP server accepted the mail, and Bob opens
    // it later (opening within the same millisecond would order opened before requestSent).
    await eventually(async () => (await eventTypes(journey.caseFileId)).includes(`sign.signer.requestSent#${bob.signerId}`));
    expect((await getAs(bob.url)).status).toBe(200);
    expect((await postJson(`${bob.url}/sign`, { method: "text", value: "Bob Berg" })).status).toBe(200);

    // Completion: status 5, sealed PDFs, mails with the sealed PDF attached.
    const done = await eventually(async () => {
      const cf = await testDb().caseFile.findUniqueOrThrow({ where: { id: journey.caseFileId }, include: { documents: true } });
      return cf.status === 5 ? cf : undefined;
    });
    const signedDoc = done.documents.find((d) => d.name === "contract.pdf")!;
    expect(signedDoc.signedSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(done.documents.find((d) => d.name === "appendix.pdf")!.signedSha256).toBeNull();
    const res = await fetch(`${system.gateway.url}/send/api/v1/casefiles/${journey.caseFileId}/documents/${signedDoc.id}/file`, {
      headers: { "X-Auth-Token": token },
    });
    const signedPdf = Buffer.from(await res.arrayBuffer());
    // The original's two pages, then the audit trail, sealed (test/e2e/sealed-documents.test.ts has the details).
    expect(await pdfPageCount(signedPdf)).toBeGreaterThan(2);
    expect((await pdfsig(signedPdf)).signatures[0]?.validation).toBe("Signature is Valid.");
    expect(signedPdf.equals(contract)).toBe(false);

    const archive = await smtp.waitFor((m) => m.to.includes("archive@example.com"));
    expect(archive.attachments.map((a) => a.filename)).toContain("contract.pdf");
    expect(archive.attachments.find((a) => a.filename === "contract.pdf")!.content.equals(signedPdf)).toBe(true);
    await smtp.waitFor((m) => m.to.includes("alice@example.com") && m.attachments.length > 0);
    await smtp.waitFor((m) => m.to.includes("bob@example.com") && m.attachments.length > 0);

    // Exactly the expected events, in order.
    await eventually(async () => (await eventTypes(journey.caseFileId)).filter((t) => t.startsWith("sign.signer.finalized")).length === 2);
    const a = `#${alice.signerId}`;
    const b = `#${bob.signerId}`;
    expect(await eventTypes(journey.caseFileId)).toEqual([
      `sign.signer.requestActivated${a}`,
      `sign.signer.requestSent${a}`,
      `sign.signer.requestOpened${a}`,
      `sign.signer.opened${a}`,
      `sign.signer.signed${a}`,
      `sign.signer.requestActivated${b}`,
      `sign.signer.requestSent${b}`,
      `sign.signer.opened${b}`,
      `sign.signer.signed${b}`,
      "sign.casefile.completed",
      `sign.signer.finalized${a}`,
      `sign.signer.finalized${b}`,
    ]);

    // The same lifecycle reached the integrator as verified webhooks.
    const hooks = await eventually(async () => {
      const got = receiver.requests("/hook");
      return got.length >= 3 ? got : undefined;
    });
    const types: string[] = [];
    for (const h of hooks) {
      const v = await verifyWebhook({ secret: sub.secret, rawBody: h.rawBody, headers: h.headers });
      expect(v.ok).toBe(true);
      types.push(String(h.headers["x-event-type"]));
    }
    expect(types.sort()).toEqual(["sign.casefile.completed", "sign.signer.signed", "sign.signer.signed"]);
  }, 120_000);

  it("delivers an e-Boks signer's request to the mailbox gateway with the right recipient and language", async () => {
    const creds = await newCustomer({ eboksEnabled: true });
    const token = await getToken(system.gateway.url, creds);
    const journey = await createCase(
      system.gateway.url,
      token,
      {
        caseFile: {
          title: "Lease",
          language: "en",
          signers: [
            { name: "Carl Christensen", channel: "eboks", cpr: "0101701234" },
            { name: "Dorte Dahl ApS", channel: "eboks", cvr: "12345678", language: "de" },
          ],
          documents: [
            { title: "Lease", name: "contract.pdf" },
            { title: "Appendix", name: "appendix.pdf", signable: false },
          ],
        },
      },
      files(),
    );
    const dir = process.env.EBOKS_SIMULATOR_DIR!;
    const messages = await eventually(async () => {
      let names: string[] = [];
      try {
        names = readdirSync(dir).filter((f) => f.endsWith(".json"));
      } catch {
        return undefined;
      }
      const all = names.map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Record<string, unknown>);
      const mine = all.filter(
        (m) => JSON.stringify(m).includes(journey.links["Carl Christensen"]!.token) || JSON.stringify(m).includes(journey.links["Dorte Dahl ApS"]!.token),
      );
      return mine.length === 2 ? mine : undefined;
    });
    const carl = messages.find((m) => JSON.stringify(m).includes("0101701234"))!;
    const dorte = messages.find((m) => JSON.stringify(m).includes("12345678"))!;
    expect(JSON.stringify(carl)).toContain("Carl Christensen");
    expect(carl).toMatchObject({ language: "en" });
    expect(JSON.stringify(dorte)).toContain("Dorte Dahl ApS");
    expect(dorte).toMatchObject({ language: "de" });
    expect(smtp.messagesTo("0101701234")).toHaveLength(0);
    await eventually(async () => (await eventTypes(journey.caseFileId)).filter((t) => t.startsWith("sign.signer.requestSent")).length === 2);
  }, 60_000);
});

import { closeTestDb, testDb } from "../../../test/support/api";
import { makePdf } from "../../../test/support/pdf";
import { pdfPageCount, pdfText, pdfsig } from "../../../test/support/poppler";
import type { System } from "../../../test/support/system";
import {
  createCaseFile,
  customerToken,
  eventsOf,
  ofType,
  overwriteStored,
  readStored,
  recordSignature,
  sleep,
  startLifecycleSystem,
  testProducer,
  until,
} from "../../../test/support/lifecycle-system";

let system: System;
let queue: ReturnType<typeof testProducer>;
let customerId: number;
let token: string;

beforeAll(async () => {
  system = await startLifecycleSystem();
  queue = testProducer();
  ({ customerId, token } = await customerToken(system));
});

afterAll(async () => {
  await queue?.close();
  await system?.stop();
  await closeTestDb();
});

/** The relay is not wired yet: enqueue what it will enqueue for a sign.signer.signed event. */
async function signAndAdvance(signerId: number): Promise<number> {
  const { eventId, caseFileId } = await recordSignature(signerId);
  await queue.producer.enqueue("casefile", "advance", { caseFileId }, { jobId: `advance-${eventId}` });
  return caseFileId;
}

const unique = () => Math.random().toString(36).slice(2, 10);

describe("signing rounds, completion and finalization", () => {
  it("activates the rounds in order, then signs, finalizes and completes with a sealed copy (audit trail + PAdES seal) per signable document", async () => {
    const contract = await makePdf(`Contract ${unique()}`, 2);
    const terms = await makePdf(`Terms ${unique()}`);
    const appendix = await makePdf(`Appendix ${unique()}`);
    const id = await createCaseFile(
      system,
      token,
      {
        title: "Employment contract",
        signers: [
          { name: "Alice Andersen", email: "alice@example.com", role: "Employee", signOrder: 0 },
          { name: "Bob Berg", email: "bob@example.com", role: "Manager", signOrder: 1, onBehalfOf: "Acme A/S" },
        ],
        documents: [
          { title: "Contract", name: "contract.pdf", roles: ["Employee", "Manager"] },
          { title: "Manager terms", name: "terms.pdf", roles: ["Manager"] },
          { title: "Appendix", name: "appendix.pdf", signable: false },
        ],
      },
      [
        { name: "contract.pdf", content: contract },
        { name: "terms.pdf", content: terms },
        { name: "appendix.pdf", content: appendix },
      ],
    );
    const db = testDb();
    const [alice, bob] = await db.signer.findMany({ where: { caseFileId: id }, orderBy: { signOrder: "asc" } });

    // Round 0 only: Alice is pending and announced, Bob waits.
    expect([alice!.status, bob!.status]).toEqual([1, 0]);
    expect(alice!.activatedAt).not.toBeNull();
    let events = await eventsOf(customerId, id);
    expect(ofType(events, "sign.signer.requestActivated").map((e) => e.payload)).toEqual([{ id: alice!.id, caseFile: { id, status: 1 } }]);

    // Alice signs; the advance arrives twice (at-least-once relay): Bob is activated once.
    const { eventId } = await recordSignature(alice!.id);
    await queue.producer.enqueue("casefile", "advance", { caseFileId: id }, { jobId: `advance-${eventId}` });
    await queue.producer.enqueue("casefile", "advance", { caseFileId: id }, { jobId: `advance-${eventId}-again` });
    await until(async () => (await db.signer.findUniqueOrThrow({ where: { id: bob!.id } })).status === 1);
    await sleep(300);
    events = await eventsOf(customerId, id);
    expect(ofType(events, "sign.signer.requestActivated").map((e) => e.payload)).toEqual([
      { id: alice!.id, caseFile: { id, status: 1 } },
      { id: bob!.id, caseFile: { id, status: 1 } },
    ]);
    expect((await db.caseFile.findUniqueOrThrow({ where: { id } })).status).toBe(1);

    // Bob signs: signed (4), then completed (5) once the signed PDFs exist.
    await signAndAdvance(bob!.id);
    const seen = new Set<number>();
    await until(
      async () => {
        const s = (await db.caseFile.findUniqueOrThrow({ where: { id } })).status;
        seen.add(s);
        return s === 5;
      },
      20_000,
      10,
    );
    const done = await db.caseFile.findUniqueOrThrow({ where: { id } });
    expect([...seen].every((s) => s === 1 || s === 4 || s === 5)).toBe(true);
    expect(done.signedAt).not.toBeNull();
    expect(done.completedAt).not.toBeNull();
    expect(done.signedAt!.getTime()).toBeLessThanOrEqual(done.completedAt!.getTime());
    expect(done.failedAt).toBeNull();

    // Each signable document: a stored sealed copy, the original's pages then the audit trail naming
    // the signers who may sign it, sealed over the whole file.
    const docs = await db.document.findMany({ where: { caseFileId: id }, orderBy: { id: "asc" } });
    const byName = Object.fromEntries(docs.map((d) => [d.name, d]));
    expect(byName["appendix.pdf"]!.signedSha256).toBeNull();
    const expectations: [string, Buffer, string[], string[]][] = [
      ["contract.pdf", contract, ["Alice Andersen", "Employee", "Bob Berg", "Manager", "Acme A/S"], []],
      ["terms.pdf", terms, ["Bob Berg", "Manager", "Acme A/S"], ["Alice Andersen", "Employee"]],
    ];
    for (const [name, original, present, absent] of expectations) {
      const doc = byName[name]!;
      expect(doc.signedSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(doc.sealLevel).toBe("B-B");
      expect(doc.sealedAt).not.toBeNull();
      const sealed = readStored(doc.signedSha256!);
      // Incremental updates: the original's bytes are the sealed file's first bytes.
      expect(sealed.subarray(0, original.length).equals(original)).toBe(true);
      const originalPages = await pdfPageCount(original);
      expect(await pdfPageCount(sealed)).toBeGreaterThan(originalPages);
      expect(await pdfText(sealed, { first: 1, last: originalPages })).toBe(await pdfText(original));
      const trail = await pdfText(sealed, { first: originalPages + 1 });
      expect(trail).toContain("Certificate of completion");
      expect(trail).toContain("Employment contract");
      expect(trail).toContain(doc.title);
      expect(trail).toContain(doc.fileSha256.slice(0, 32));
      for (const n of present) expect(trail).toContain(n);
      for (const n of absent) expect(trail).not.toContain(n);
      expect(trail).toContain("Typed name");
      expect(trail).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
      const sig = await pdfsig(sealed);
      expect(sig.signatures).toHaveLength(1);
      expect(sig.signatures[0]).toMatchObject({
        subFilter: "ETSI.CAdES.detached",
        hashAlgorithm: "SHA-256",
        totalDocumentSigned: true,
        validation: "Signature is Valid.",
      });
    }
    // The gateway now serves the signed copy.
    const served = await fetch(`${system.gateway.url}/send/api/v1/casefiles/${id}/documents/${byName["contract.pdf"]!.id}/file`, {
      headers: { "X-Auth-Token": token },
    });
    expect(Buffer.from(await served.arrayBuffer()).equals(readStored(byName["contract.pdf"]!.signedSha256!))).toBe(true);

    // Outbox: completed once, finalized once per signer, all carrying status 5.
    events = await eventsOf(customerId, id);
    expect(ofType(events, "sign.casefile.completed").map((e) => e.payload)).toEqual([{ id, status: 5 }]);
    expect(ofType(events, "sign.signer.finalized").map((e) => e.payload)).toEqual([
      { id: alice!.id, caseFile: { id, status: 5 } },
      { id: bob!.id, caseFile: { id, status: 5 } },
    ]);
    expect(ofType(events, "sign.casefile.failed")).toHaveLength(0);

    // A late duplicate finalize leaves the completed case file alone.
    await queue.producer.enqueue("casefile", "finalize", { caseFileId: id }, { jobId: `finalize-again-${id}` });
    await until(async () => (await (await queue.producer.queue("casefile").getJob(`finalize-again-${id}`))?.getState()) === "completed");
    expect(await eventsOf(customerId, id)).toHaveLength(events.length);
    const docsAfter = await db.document.findMany({ where: { caseFileId: id }, orderBy: { id: "asc" } });
    expect(docsAfter.map((d) => d.signedSha256)).toEqual(docs.map((d) => d.signedSha256));
  }, 45_000);

  it("a retried finalization derives from the original: one audit trail, one seal, and a sealed document is not sealed again", async () => {
    const original = await makePdf(`Retry ${unique()}`);
    const id = await createCaseFile(
      system,
      token,
      {
        title: "Retried",
        signers: [{ name: "Rita Retry", email: "rita@example.com" }],
        documents: [
          { title: "Retried", name: "retried.pdf" },
          { title: "Second", name: "second.pdf" },
        ],
      },
      [
        { name: "retried.pdf", content: original },
        { name: "second.pdf", content: await makePdf(`Second ${unique()}`) },
      ],
    );
    const db = testDb();
    const [rita] = await db.signer.findMany({ where: { caseFileId: id } });
    await signAndAdvance(rita!.id);
    await until(async () => (await db.caseFile.findUniqueOrThrow({ where: { id } })).status === 5, 20_000);
    const [first, second] = await db.document.findMany({ where: { caseFileId: id }, orderBy: { id: "asc" } });

    // A crash after the second document was sealed but before the first's address was stored and the
    // case file completed: back to status 4, the first document without its sealed copy.
    await db.document.update({ where: { id: first!.id }, data: { signedSha256: null } });
    await db.caseFile.update({ where: { id }, data: { status: 4, completedAt: null } });
    await queue.producer.enqueue("casefile", "finalize", { caseFileId: id }, { jobId: `finalize-retry-${id}` });
    await until(async () => (await db.caseFile.findUniqueOrThrow({ where: { id } })).status === 5, 20_000);

    const [firstAfter, secondAfter] = await db.document.findMany({ where: { caseFileId: id }, orderBy: { id: "asc" } });
    // The finished document kept its sealed copy; the other was sealed once more, from the original.
    expect(secondAfter!.signedSha256).toBe(second!.signedSha256);
    const resealed = readStored(firstAfter!.signedSha256!);
    expect(resealed.subarray(0, original.length).equals(original)).toBe(true);
    const sig = await pdfsig(resealed);
    expect(sig.signatures).toHaveLength(1);
    expect(sig.signatures[0]).toMatchObject({ totalDocumentSigned: true, validation: "Signature is Valid." });
    const text = await pdfText(resealed);
    expect(text.match(/Certificate of completion/g)).toHaveLength(1);
    // As many pages as the first sealing made: nothing stacked on top.
    expect(await pdfPageCount(resealed)).toBe(await pdfPageCount(readStored(first!.signedSha256!)));
  }, 45_000);

  it("fails the case file (6, sign.casefile.failed) when a stored PDF turns out corrupt, without retrying", async () => {
    const pdf = await makePdf(`Doomed ${unique()}`);
    const id = await createCaseFile(
      system,
      token,
      { title: "Doomed", signers: [{ name: "Carla Corrupt", email: "carla@example.com" }], documents: [{ title: "Doomed", name: "doomed.pdf" }] },
      [{ name: "doomed.pdf", content: pdf }],
    );
    const db = testDb();
    const doc = await db.document.findFirstOrThrow({ where: { caseFileId: id } });
    // Damaged at rest after it was accepted: still looks like a PDF from outside, but cannot be parsed.
    overwriteStored(doc.fileSha256, Buffer.from("%PDF-1.7\nthis is not a pdf any more\n%%EOF\n"));
    const [carla] = await db.signer.findMany({ where: { caseFileId: id } });
    await signAndAdvance(carla!.id);

    await until(async () => (await db.caseFile.findUniqueOrThrow({ where: { id } })).status === 6);
    const failed = await db.caseFile.findUniqueOrThrow({ where: { id } });
    expect(failed.failedAt).not.toBeNull();
    expect(failed.completedAt).toBeNull();
    expect(failed.failureReason).toMatch(/Doomed.*not a readable PDF/);
    const events = await eventsOf(customerId, id);
    expect(ofType(events, "sign.casefile.failed").map((e) => e.payload)).toEqual([{ id, status: 6 }]);
    expect(ofType(events, "sign.casefile.completed")).toHaveLength(0);
    expect(ofType(events, "sign.signer.finalized")).toHaveLength(0);
    expect((await db.document.findUniqueOrThrow({ where: { id: doc.id } })).signedSha256).toBeNull();
    // Failed on the first attempt: a corrupt file is not retried.
    const job = await queue.producer.queue("casefile").getJob(`finalize-${id}`);
    expect(job?.attemptsMade ?? 0).toBeLessThanOrEqual(1);
    expect(await job?.getState()).toBe("completed");
  }, 30_000);
});

import { randomUUID } from "node:crypto";
import { decryptSecret, hashSigningToken, runOne, sqlPool } from "@esign/db";
import { ZSigningLinkItem, validateCreateRequest, type TCaseFile } from "@esign/schema";
import { closeTestDb, testDb, TEST_ENCRYPTION_KEY, watchedCustomer } from "../../../test/support/api";
import { persistCaseFile, type Persisted } from "../src/domain/persist-casefile";
import { claimCreationJobSql } from "../src/jobs/create-casefile.sql";

/*
 * The creation job's one-statement write, against PostgreSQL: every field of the payload lands in
 * its column, the send happens (or not) as the rules say, and the job row ends completed with a
 * result naming the rows. The e2e tests go through the services; this one reads every column.
 */

const NOW = new Date("2030-01-01T12:00:00.000Z");
const unix = (iso: string) => Date.parse(iso) / 1000;
const FILES = [
  { name: "contract.pdf", sha256: "a".repeat(64), size: 1234 },
  { name: "appendix.pdf", sha256: "b".repeat(64), size: 99 },
];

let customerId: number;
let userId: number;
let folderId: number;

beforeAll(async () => {
  const customer = await testDb().customer.create({ data: { name: "Persist Ltd", eboksEnabled: true, secureSigningMethods: ["mitid.dk", "sms"] } });
  customerId = customer.id;
  userId = (await testDb().user.create({ data: { customerId, email: "owner@persist.example", name: "Owner" } })).id;
  folderId = (await testDb().folder.create({ data: { customerId, title: "Persisted" } })).id;
});
afterAll(closeTestDb);

function caseFileOf(caseFile: Record<string, unknown>): TCaseFile {
  const v = validateCreateRequest(
    JSON.stringify({ caseFile }),
    FILES.map((f) => f.name),
  );
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.value.caseFile;
}

/** The job's claim, as the worker makes it: the ids drawn for it (null for a job that is done), signer ids ascending. */
async function claim(jobId: string): Promise<{ status: string; caseFileId: number | null; signerIds: number[] | null }> {
  const row = await runOne(sqlPool(testDb()), claimCreationJobSql, { id: jobId, retries: 0, duplicateWindowSeconds: 0 });
  if (!row) throw new Error(`no creation job ${jobId}`);
  return {
    status: row.status,
    caseFileId: row.caseFileId === null ? null : Number(row.caseFileId),
    signerIds: row.signerIds === null ? null : row.signerIds.map(Number).sort((a, b) => a - b),
  };
}

/** A stored creation job; answers its id. */
async function storedJob(cf: TCaseFile, owner = { customerId, userId }): Promise<string> {
  const jobId = randomUUID();
  await testDb().creationJob.create({
    data: { id: jobId, customerId: owner.customerId, userId: owner.userId, payloadHash: "h", payload: cf as object, files: FILES, status: "pending" },
  });
  return jobId;
}

/** Writes the case file of a claimed job, as the worker does. */
function write(jobId: string, drawn: { caseFileId: number | null; signerIds: number[] | null }, cf: TCaseFile, retries = 1, owner = { customerId, userId }) {
  if (drawn.caseFileId === null || drawn.signerIds === null) throw new Error("the claim drew no ids");
  const target = { id: jobId, ...owner, retries, caseFileId: drawn.caseFileId, signerIds: drawn.signerIds };
  return persistCaseFile(sqlPool(testDb()), target, { eboksEnabled: true, secureSigningMethods: ["mitid.dk", "sms"] }, cf, FILES, {
    publicBaseUrl: "https://esign.example",
    encryptionKey: TEST_ENCRYPTION_KEY,
    now: NOW,
  });
}

/** A stored creation job, claimed and persisted as the worker does; answers what the write returned. */
async function persist(cf: TCaseFile, retries = 1, owner = { customerId, userId }): Promise<{ jobId: string; persisted: Persisted | null }> {
  const jobId = await storedJob(cf, owner);
  const persisted = await write(jobId, await claim(jobId), cf, retries, owner);
  return { jobId, persisted };
}

/** A signer's own texts and reminder setting: kept together on the signer's notification column. */
const ALICE_TEXTS = {
  emailFormat: "html",
  emailSubject: "Please sign",
  emailText: "Body text",
  reminderInterval: 3,
  reminderEmailSubject: "Reminder",
  reminderEmailText: "Reminder body",
  completedEmailSubject: "All done",
  completedEmailText: "Done body",
};

/** Payload fields that land in a signer column of the same name unchanged. */
const ALICE_AS_STORED = {
  email: "alice@example.com",
  role: "Employee",
  signOrder: 0,
  onBehalfOf: "Alice ApS",
  language: "en",
  accessControl: true,
  successUrl: "https://example.com/ok",
  failUrl: "https://example.com/fail",
  enableInsecureSigning: true,
  insecureSigningMethods: ["text", "draw"],
  storeAsContact: true,
};

/** Payload fields that land in a case file column of the same name unchanged. */
const CASE_FILE_AS_STORED = {
  title: "Every field",
  language: "da",
  metaData: "meta-1",
  reference: "ref-1",
  sensitiveData: true,
  visibilityMode: 1,
  disableNotificationsOwner: true,
  disableEmailAttachments: true,
  senderName: "Sender Co",
  signOnMeeting: true,
};

const FULL = {
  ...CASE_FILE_AS_STORED,
  expireAt: unix("2030-02-01T00:00:00Z"),
  documents: [
    { title: "Contract", name: "contract.pdf", roles: ["Employee", "Manager"], documentOrder: 2, metaData: "doc-meta" },
    { title: "Appendix", name: "appendix.pdf", signable: false },
  ],
  signers: [
    {
      name: "Alice",
      ...ALICE_AS_STORED,
      ...ALICE_TEXTS,
      expireAt: unix("2030-01-20T00:00:00Z"),
    },
    {
      name: "Bob",
      channel: "eboks",
      cpr: "0101901234",
      role: "Manager",
      signOrder: 0,
      secureSigningMethods: ["mitid.dk"],
      activeAt: unix("2030-01-05T00:00:00Z"),
    },
    { name: "Carl", channel: "eboks", cvr: "12345678", vatin: "DK12345678", role: "Manager", signOrder: 1 },
  ],
  ccRecipients: [
    { name: "HR", email: "hr@example.com" },
    { name: "Legal", email: "legal@example.com", storeAsContact: false },
  ],
};

describe("persistCaseFile", () => {
  it("writes every field of the payload, sends the case file and completes the job in one go", async () => {
    const cf = caseFileOf({ ...FULL, folderId });
    const { jobId, persisted } = await persist(cf, 2);
    const db = testDb();
    const caseFile = await db.caseFile.findUniqueOrThrow({
      where: { creationJobId: jobId },
      include: {
        documents: { orderBy: { id: "asc" } },
        signers: { orderBy: { id: "asc" }, include: { signingLink: true } },
        ccRecipients: { orderBy: { id: "asc" } },
      },
    });
    expect(persisted?.caseFileId).toBe(caseFile.id);
    expect(caseFile).toMatchObject({
      customerId,
      userId,
      ...CASE_FILE_AS_STORED,
      folderId,
      status: 1,
      activate: true,
      sendAt: null,
      expireAt: new Date("2030-02-01T00:00:00Z"),
      sentAt: NOW,
    });
    expect(
      caseFile.documents.map(({ title, name, signable, roles, documentOrder, metaData, fileSha256, size }) => ({
        title,
        name,
        signable,
        roles,
        documentOrder,
        metaData,
        fileSha256,
        size,
      })),
    ).toEqual([
      {
        title: "Contract",
        name: "contract.pdf",
        signable: true,
        roles: ["Employee", "Manager"],
        documentOrder: 2,
        metaData: "doc-meta",
        fileSha256: "a".repeat(64),
        size: 1234,
      },
      { title: "Appendix", name: "appendix.pdf", signable: false, roles: [], documentOrder: null, metaData: null, fileSha256: "b".repeat(64), size: 99 },
    ]);
    expect(caseFile.ccRecipients.map(({ name, email, storeAsContact }) => ({ name, email, storeAsContact }))).toEqual([
      { name: "HR", email: "hr@example.com", storeAsContact: true },
      { name: "Legal", email: "legal@example.com", storeAsContact: false },
    ]);

    const [alice, bob, carl] = caseFile.signers;
    expect(caseFile.signers.map((s) => s.name)).toEqual(["Alice", "Bob", "Carl"]);
    expect(alice).toMatchObject({
      ...ALICE_AS_STORED,
      channel: "email",
      // Omitted in the payload: every method of the account.
      secureSigningMethods: ["mitid.dk", "sms"],
      notification: ALICE_TEXTS,
      activeAt: null,
      expireAt: new Date("2030-01-20T00:00:00Z"),
      // First round, access started: pending now.
      status: 1,
      activatedAt: NOW,
    });
    // First round, but its access starts later: stays new (its activate-signer job moves it).
    expect(bob).toMatchObject({
      channel: "eboks",
      secureSigningMethods: ["mitid.dk"],
      activeAt: new Date("2030-01-05T00:00:00Z"),
      status: 0,
      activatedAt: null,
    });
    expect(bob!.notification).toMatchObject({ emailSubject: null, reminderInterval: null });
    // The CPR number is a national id: stored encrypted (issue 26).
    expect(bob!.cprEnc).not.toContain("0101901234");
    expect(decryptSecret(bob!.cprEnc!, TEST_ENCRYPTION_KEY)).toBe("0101901234");
    expect(carl).toMatchObject({
      cvr: "12345678",
      vatin: "DK12345678",
      signOrder: 1,
      status: 0,
      activatedAt: null,
      enableInsecureSigning: false,
      insecureSigningMethods: [],
    });

    // The job: completed, with the attempts made, and a result whose links open each signer's link row.
    const job = await db.creationJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: "completed", retries: 2, errorMessage: null });
    const result = job.result as { caseFile: { id: number; status: number }; signingLinksEnc: string };
    expect(result.caseFile).toEqual({ id: caseFile.id, status: 1 });
    const links = ZSigningLinkItem.array().parse(JSON.parse(decryptSecret(result.signingLinksEnc, TEST_ENCRYPTION_KEY)));
    // Every signer whose role signs a document (both roles sign the contract) gets a link.
    expect(links.map((l) => [l.signerId, l.name, l.role])).toEqual(caseFile.signers.map((s) => [s.id, s.name, s.role]));
    for (const l of links) {
      const signer = caseFile.signers.find((s) => s.id === l.signerId)!;
      const token = l.signingLink.replace("https://esign.example/sign/", "");
      expect(signer.signingLink?.tokenHash).toBe(hashSigningToken(token));
      expect(decryptSecret(signer.signingLink!.tokenEnc, TEST_ENCRYPTION_KEY)).toBe(token);
    }

    // One requestActivated, for the one signer activated, carrying the new status.
    const events = await db.event.findMany({ where: { customerId, eventType: "sign.signer.requestActivated" } });
    expect(events.filter((e) => (e.payload as { caseFile: { id: number } }).caseFile.id === caseFile.id).map((e) => e.payload)).toEqual([
      { id: alice!.id, caseFile: { id: caseFile.id, status: 1 } },
    ]);
    // What the timers are scheduled from is what was committed.
    expect(persisted?.created.signers.map((s) => [s.id, s.status])).toEqual(caseFile.signers.map((s) => [s.id, s.status]));
    // The events for the job to publish itself once committed: unrelayed, as the relay would read
    // them back, and wanted by no subscription (this customer has none).
    const own = events.filter((e) => (e.payload as { caseFile: { id: number } }).caseFile.id === caseFile.id);
    expect(own.map((e) => e.relayedAt)).toEqual([null]);
    expect(persisted?.events).toEqual(own.map((e) => ({ id: e.id, customerId, eventType: e.eventType, payload: e.payload, hasSubscribers: false })));

    // storeAsContact: Alice (with her onBehalfOf) and the HR cc recipient; not Legal (declined), not
    // Bob and Carl (no storeAsContact, no email).
    const contacts = await db.contact.findMany({ where: { customerId }, orderBy: { id: "asc" } });
    expect(contacts.map(({ name, email, onBehalfOf }) => [name, email, onBehalfOf])).toEqual([
      ["Alice", "alice@example.com", "Alice ApS"],
      ["HR", "hr@example.com", null],
    ]);
  });

  it("puts the case file in no folder when its folder is another customer's or gone; contacts stay one per email", async () => {
    const stranger = await testDb().customer.create({ data: { name: "Stranger" } });
    const theirs = (await testDb().folder.create({ data: { customerId: stranger.id, title: "Not yours" } })).id;
    const gone = (await testDb().folder.create({ data: { customerId, title: "Gone" } })).id;
    await testDb().folder.delete({ where: { id: gone } });
    for (const id of [theirs, gone]) {
      const { jobId } = await persist(caseFileOf({ ...FULL, folderId: id }));
      expect(await testDb().caseFile.findUniqueOrThrow({ where: { creationJobId: jobId } })).toMatchObject({ folderId: null, status: 1 });
    }
    expect(await testDb().contact.count({ where: { customerId } })).toBe(2);
    expect(await testDb().contact.count({ where: { customerId: stranger.id } })).toBe(0);
  });

  it("answers which of its events some subscription of the customer wants, as the relay's claim does", async () => {
    const watched = await watchedCustomer(["sign.signer.requestActivated"]);
    const cf = caseFileOf({
      title: "Watched",
      documents: [
        { title: "Contract", name: "contract.pdf" },
        { title: "Appendix", name: "appendix.pdf", signable: false },
      ],
      signers: [{ name: "Ann", email: "ann@example.com" }],
    });
    const wanted = await persist(cf, 1, watched);
    expect(wanted.persisted?.events.map((e) => [e.eventType, e.hasSubscribers])).toEqual([["sign.signer.requestActivated", true]]);
    // This customer has no subscription: the same event is wanted by nobody.
    const unwanted = await persist(cf);
    expect(unwanted.persisted?.events.map((e) => [e.eventType, e.hasSubscribers])).toEqual([["sign.signer.requestActivated", false]]);
  });

  it("leaves a case file with a future sendAt new, unsent, without events", async () => {
    const cf = caseFileOf({ ...FULL, sendAt: unix("2030-01-10T00:00:00Z") });
    const { jobId, persisted } = await persist(cf);
    const caseFile = await testDb().caseFile.findUniqueOrThrow({ where: { creationJobId: jobId }, include: { signers: true } });
    expect(caseFile).toMatchObject({ status: 0, sentAt: null, sendAt: new Date("2030-01-10T00:00:00Z") });
    expect(caseFile.signers.every((s) => s.status === 0 && s.activatedAt === null)).toBe(true);
    expect(persisted?.status).toBe(0);
    const events = await testDb().event.findMany({ where: { customerId, eventType: "sign.signer.requestActivated" } });
    expect(events.some((e) => (e.payload as { caseFile: { id: number } }).caseFile.id === caseFile.id)).toBe(false);
  });

  it("does not send a case file whose expireAt has passed, and one with activateCaseFile false gets no links", async () => {
    const expired = await persist(caseFileOf({ ...FULL, expireAt: unix("2029-12-31T00:00:00Z") }));
    expect(await testDb().caseFile.findUniqueOrThrow({ where: { creationJobId: expired.jobId } })).toMatchObject({ status: 0, sentAt: null });

    const inactive = await persist(caseFileOf({ ...FULL, activateCaseFile: false }));
    const caseFile = await testDb().caseFile.findUniqueOrThrow({
      where: { creationJobId: inactive.jobId },
      include: { signers: { include: { signingLink: true } } },
    });
    expect(caseFile).toMatchObject({ status: 0, activate: false });
    expect(caseFile.signers.every((s) => s.signingLink === null)).toBe(true);
  });

  it("writes nothing when the job is no longer pending or processing: a second run that claimed before the first one wrote", async () => {
    const cf = caseFileOf(FULL);
    const jobId = await storedJob(cf);
    const first = await claim(jobId);
    const second = await claim(jobId);
    expect(await write(jobId, first, cf)).not.toBeNull();
    expect(await write(jobId, second, cf)).toBeNull();
    expect(await testDb().caseFile.count({ where: { creationJobId: jobId } })).toBe(1);
    // Nothing of the second run's is left: its case file id names no row, its signer ids none.
    expect(await testDb().caseFile.count({ where: { id: second.caseFileId ?? 0 } })).toBe(0);
    expect(await testDb().signer.count({ where: { id: { in: second.signerIds ?? [] } } })).toBe(0);
  });

  it("writes nothing for a job another run failed while this one waited on its lock; the wait ends with that run", async () => {
    const cf = caseFileOf(FULL);
    const jobId = await storedJob(cf);
    const drawn = await claim(jobId);
    // The other run: holds the job's row, then marks it failed and commits.
    const other = await sqlPool(testDb()).connect();
    try {
      await other.query("BEGIN");
      await other.query(`SELECT 1 FROM "CreationJob" WHERE id = $1 FOR UPDATE`, [jobId]);
      const waiting = write(jobId, drawn, cf);
      // It waits for the lock (it would have written by now otherwise).
      await new Promise((r) => setTimeout(r, 300));
      expect(await testDb().caseFile.count({ where: { creationJobId: jobId } })).toBe(0);
      await other.query(`UPDATE "CreationJob" SET status = 'failed' WHERE id = $1`, [jobId]);
      await other.query("COMMIT");
      expect(await waiting).toBeNull();
    } finally {
      other.release();
    }
    expect(await testDb().caseFile.count({ where: { creationJobId: jobId } })).toBe(0);
    expect(await testDb().signer.count({ where: { id: { in: drawn.signerIds ?? [] } } })).toBe(0);
    expect((await testDb().creationJob.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("failed");
  });

  it("the claim draws one id per signer of the stored payload, ascending, and none for a job that is done", async () => {
    const cf = caseFileOf(FULL);
    const jobId = await storedJob(cf);
    const drawn = await claim(jobId);
    expect(drawn.status).toBe("pending");
    expect(drawn.caseFileId).toEqual(expect.any(Number));
    expect(drawn.signerIds).toHaveLength(cf.signers.length);
    expect(drawn.signerIds).toEqual([...(drawn.signerIds ?? [])].sort((a, b) => a - b));
    await write(jobId, drawn, cf);
    expect(await claim(jobId)).toEqual({ status: "completed", caseFileId: null, signerIds: null });
  });
});

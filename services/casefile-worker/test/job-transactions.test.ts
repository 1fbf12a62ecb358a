import type { CustomerCredentials } from "@esign/accounts";
import type { Db } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { countedStatements, openCountedDatabase, type CountedDatabase } from "../../../test/support/statement-counts";
import { activateSigner } from "../src/domain/activate-signer";
import { expireCaseFile } from "../src/domain/expire-casefile";
import { expireSigner } from "../src/domain/expire-signer";
import { completeCaseFile, failCaseFile } from "../src/domain/complete-casefile";
import { sendCaseFile } from "../src/domain/send-casefile";

/*
 * The casefile-worker's lifecycle jobs' transactions against PostgreSQL: what each changes, and in how
 * many round trips. Each opens with BEGIN and the case file's lock in one round trip, reads what it
 * decides on under the lock, and sends its change with the COMMIT:
 * - send (a case file sent at its sendAt, or a draft the user sent) and activate-signer (a signer's
 *   activeAt came): three;
 * - expire (the case file's expireAt): two; expire-signer: three;
 * - the finalization's last step, after the sealing: completed in three, failed in two.
 * The timers, finalization and archive suites drive the same code through the jobs, with real
 * sealing and delayed jobs.
 */

let counted: CountedDatabase;
let db: Db;
let customer: CustomerCredentials;

beforeAll(async () => {
  counted = await openCountedDatabase("job_transactions", "Send A/S");
  ({ db, customer } = counted);
}, 60_000);

afterAll(() => counted?.close());

interface Setup {
  status?: number;
  expireAt?: Date;
  sendSigningRequests?: boolean;
  signers: { signOrder: number; status?: number; activeAt?: Date; expireAt?: Date }[];
  /** Signable documents, with a signed copy (true) or without (false); with any, also one that is not signable. */
  documents?: boolean[];
}

async function caseFileWith({ status = CASEFILE_STATUS.new, expireAt, sendSigningRequests, signers, documents = [] }: Setup) {
  const cf = await db.caseFile.create({
    data: { customerId: customer.customerId, userId: customer.userId, title: "Skøde", status, expireAt, sendSigningRequests },
  });
  const ids: number[] = [];
  for (const [i, s] of signers.entries()) {
    const row = await db.signer.create({
      data: { caseFileId: cf.id, name: `Signer ${i}`, email: `s${i}@example.com`, notification: {}, status: SIGNER_STATUS.new, ...s },
    });
    ids.push(row.id);
  }
  const doc = { caseFileId: cf.id, name: "a.pdf", fileSha256: "a".repeat(64), size: 100 };
  for (const sealed of documents) await db.document.create({ data: { ...doc, title: "Signable", signedSha256: sealed ? "b".repeat(64) : null } });
  if (documents.length > 0) await db.document.create({ data: { ...doc, title: "Annex", signable: false } });
  return { caseFileId: cf.id, signerIds: ids };
}

/** The case file's events in order: a signer's with its id, the case file's own with signerId undefined; each with the case file's status it carries. */
const events = async (caseFileId: number) =>
  (await db.event.findMany({ where: { customerId: customer.customerId }, orderBy: { seq: "asc" } }))
    .map((e) => ({ type: e.eventType, p: e.payload as { id: number; status?: number; caseFile?: { id: number; status: number } } }))
    .filter(({ p }) => (p.caseFile?.id ?? p.id) === caseFileId)
    .map(({ type, p }) => ({ type, signerId: p.caseFile ? p.id : undefined, caseFileStatus: p.caseFile?.status ?? p.status }));

const log = async (caseFileId: number) =>
  (await db.logEntry.findMany({ where: { caseFileId }, orderBy: { id: "asc" } })).map((l) => ({ event: l.event, signerId: l.signerId, detail: l.detail }));

const statuses = async (caseFileId: number) => (await db.signer.findMany({ where: { caseFileId }, orderBy: { id: "asc" } })).map((s) => s.status);

describe("sendCaseFile", () => {
  it("sends a new case file: pending with sentAt, the first round's started signers activated with their events, the send's log entry first; in three round trips", async () => {
    const later = new Date(Date.now() + 3_600_000);
    const { caseFileId, signerIds } = await caseFileWith({
      signers: [{ signOrder: 0 }, { signOrder: 0, activeAt: later }, { signOrder: 1 }, { signOrder: 0 }],
    });
    const now = new Date();
    const run = await countedStatements(() => sendCaseFile(db, caseFileId, { now }));
    expect(run).toMatchObject({
      roundTrips: 3,
      transactions: 1,
      result: { sent: true, state: { caseFile: { id: caseFileId, status: CASEFILE_STATUS.pending } } },
    });
    expect(run.result.state?.signers.map((s) => s.status)).toEqual([SIGNER_STATUS.pending, SIGNER_STATUS.new, SIGNER_STATUS.new, SIGNER_STATUS.pending]);
    expect(await db.caseFile.findUniqueOrThrow({ where: { id: caseFileId } })).toMatchObject({ status: CASEFILE_STATUS.pending, sentAt: now });
    expect(await statuses(caseFileId)).toEqual([SIGNER_STATUS.pending, SIGNER_STATUS.new, SIGNER_STATUS.new, SIGNER_STATUS.pending]);
    expect((await db.signer.findUniqueOrThrow({ where: { id: signerIds[0]! } })).activatedAt).toEqual(now);
    expect(await events(caseFileId)).toEqual([
      { type: "sign.signer.requestActivated", signerId: signerIds[0], caseFileStatus: CASEFILE_STATUS.pending },
      { type: "sign.signer.requestActivated", signerId: signerIds[3], caseFileStatus: CASEFILE_STATUS.pending },
    ]);
    expect(await log(caseFileId)).toEqual([
      { event: "sent", signerId: null, detail: { trigger: "sendAt" } },
      { event: "requestActivated", signerId: signerIds[0], detail: null },
      { event: "requestActivated", signerId: signerIds[3], detail: null },
    ]);

    // A duplicate send job: nothing changes; the state (with its signers, for the timers) as committed.
    const again = await countedStatements(() => sendCaseFile(db, caseFileId));
    expect(again).toMatchObject({ roundTrips: 3, transactions: 1, result: { sent: false, state: { caseFile: { status: CASEFILE_STATUS.pending } } } });
    expect(again.result.state?.signers).toHaveLength(4);
    expect(await events(caseFileId)).toHaveLength(2);
    expect(await log(caseFileId)).toHaveLength(3);
  });

  it("writes no entry of its own when the user's send wrote it (logged), and 'activated' for a case file that sends no requests", async () => {
    const logged = await caseFileWith({ signers: [{ signOrder: 0 }] });
    expect((await sendCaseFile(db, logged.caseFileId, { logged: true })).sent).toBe(true);
    expect((await log(logged.caseFileId)).map((l) => l.event)).toEqual(["requestActivated"]);

    const quiet = await caseFileWith({ sendSigningRequests: false, signers: [{ signOrder: 0 }] });
    expect((await sendCaseFile(db, quiet.caseFileId)).sent).toBe(true);
    expect((await log(quiet.caseFileId)).map((l) => l.event)).toEqual(["activated", "requestActivated"]);
  });

  it("does not send a case file past its expireAt, nor one that is not new, nor an unknown one: two round trips, nothing written", async () => {
    const expired = await caseFileWith({ expireAt: new Date(Date.now() - 1_000), signers: [{ signOrder: 0 }] });
    expect(await countedStatements(() => sendCaseFile(db, expired.caseFileId))).toMatchObject({
      roundTrips: 2,
      transactions: 1,
      result: { sent: false, state: { caseFile: { status: CASEFILE_STATUS.new }, signers: [] } },
    });
    const rejected = await caseFileWith({ status: CASEFILE_STATUS.rejected, signers: [{ signOrder: 0 }] });
    expect(await countedStatements(() => sendCaseFile(db, rejected.caseFileId))).toMatchObject({ roundTrips: 2, result: { sent: false } });
    for (const { caseFileId } of [expired, rejected]) {
      expect(await statuses(caseFileId)).toEqual([SIGNER_STATUS.new]);
      expect(await events(caseFileId)).toEqual([]);
      expect(await log(caseFileId)).toEqual([]);
    }
    expect(await sendCaseFile(db, 2_000_000_000)).toEqual({ sent: false, state: undefined });
  });
});

describe("activateSigner", () => {
  it("activates a current-round signer at its activeAt (with its round's other started signers), in three round trips; early and later-round signers wait", async () => {
    const at = new Date(Date.now() + 60_000);
    const { caseFileId, signerIds } = await caseFileWith({
      status: CASEFILE_STATUS.pending,
      signers: [
        { signOrder: 0, activeAt: at },
        { signOrder: 0, status: SIGNER_STATUS.signed },
        { signOrder: 1, activeAt: new Date(Date.now() - 60_000) },
      ],
    });
    const [first, , later] = signerIds as [number, number, number];
    // The next round's signer, its activeAt passed: its round is not reached (the first signer holds
    // it); advance activates it then.
    expect(await activateSigner(db, later)).toEqual({ kind: "unchanged" });
    expect(await countedStatements(() => activateSigner(db, first, new Date(at.getTime() - 1_000)))).toEqual({
      result: { kind: "early", at },
      roundTrips: 3,
      transactions: 1,
    });
    expect(await events(caseFileId)).toEqual([]);
    expect(await countedStatements(() => activateSigner(db, first, at))).toEqual({
      result: { kind: "activated", signerIds: [first] },
      roundTrips: 3,
      transactions: 1,
    });
    expect(await statuses(caseFileId)).toEqual([SIGNER_STATUS.pending, SIGNER_STATUS.signed, SIGNER_STATUS.new]);
    expect(await events(caseFileId)).toEqual([{ type: "sign.signer.requestActivated", signerId: first, caseFileStatus: CASEFILE_STATUS.pending }]);
    expect((await log(caseFileId)).map((l) => l.event)).toEqual(["requestActivated"]);
    // Again (a duplicate job): nobody moves twice.
    expect(await activateSigner(db, first, at)).toEqual({ kind: "unchanged" });
    expect(await events(caseFileId)).toHaveLength(1);
  });

  it("leaves a signer of a case file that is not pending alone, and an unknown signer: two round trips", async () => {
    const { signerIds } = await caseFileWith({ status: CASEFILE_STATUS.rejected, signers: [{ signOrder: 0 }] });
    expect(await countedStatements(() => activateSigner(db, signerIds[0]!))).toEqual({ result: { kind: "unchanged" }, roundTrips: 2, transactions: 1 });
    expect(await countedStatements(() => activateSigner(db, 2_000_000_000))).toEqual({ result: { kind: "unchanged" }, roundTrips: 2, transactions: 1 });
  });
});

describe("the finalization's last step", () => {
  it("completes a signed case file: completed (5) with completedAt, sign.casefile.completed then sign.signer.finalized per signer who signed, in three round trips", async () => {
    const { caseFileId, signerIds } = await caseFileWith({
      status: CASEFILE_STATUS.signed,
      signers: [SIGNER_STATUS.signed, SIGNER_STATUS.deleted, SIGNER_STATUS.signed].map((status) => ({ signOrder: 0, status })),
      documents: [true],
    });
    const now = new Date();
    expect(await countedStatements(() => completeCaseFile(db, caseFileId, now))).toEqual({ result: true, roundTrips: 3, transactions: 1 });
    expect(await db.caseFile.findUniqueOrThrow({ where: { id: caseFileId } })).toMatchObject({ status: CASEFILE_STATUS.completed, completedAt: now });
    expect(await events(caseFileId)).toEqual([
      { type: "sign.casefile.completed", signerId: undefined, caseFileStatus: CASEFILE_STATUS.completed },
      { type: "sign.signer.finalized", signerId: signerIds[0], caseFileStatus: CASEFILE_STATUS.completed },
      { type: "sign.signer.finalized", signerId: signerIds[2], caseFileStatus: CASEFILE_STATUS.completed },
    ]);
    expect((await log(caseFileId)).map((l) => l.event)).toEqual(["completed", "finalized", "finalized"]);
    // A retried job: the case file is no longer signed, nothing is written, two round trips.
    expect(await countedStatements(() => completeCaseFile(db, caseFileId, new Date()))).toEqual({ result: false, roundTrips: 2, transactions: 1 });
    expect(await events(caseFileId)).toHaveLength(3);
  });

  it("refuses to complete while a signable document has no signed copy, and writes nothing", async () => {
    const { caseFileId } = await caseFileWith({
      status: CASEFILE_STATUS.signed,
      signers: [{ signOrder: 0, status: SIGNER_STATUS.signed }],
      documents: [true, false],
    });
    await expect(completeCaseFile(db, caseFileId, new Date())).rejects.toThrow("1 signable document(s) have no signed copy yet");
    expect((await db.caseFile.findUniqueOrThrow({ where: { id: caseFileId } })).status).toBe(CASEFILE_STATUS.signed);
    expect(await events(caseFileId)).toEqual([]);
  });

  it("fails a signed case file with its reason and sign.casefile.failed in two round trips; one that is not signed is left alone", async () => {
    const { caseFileId } = await caseFileWith({
      status: CASEFILE_STATUS.signed,
      signers: [{ signOrder: 0, status: SIGNER_STATUS.signed }],
      documents: [false],
    });
    expect(await countedStatements(() => failCaseFile(db, caseFileId, "Document 1 is corrupt", new Date()))).toEqual({
      result: true,
      roundTrips: 2,
      transactions: 1,
    });
    expect(await db.caseFile.findUniqueOrThrow({ where: { id: caseFileId } })).toMatchObject({
      status: CASEFILE_STATUS.failed,
      failureReason: "Document 1 is corrupt",
      failedAt: expect.any(Date),
    });
    expect(await events(caseFileId)).toEqual([{ type: "sign.casefile.failed", signerId: undefined, caseFileStatus: CASEFILE_STATUS.failed }]);
    const completed = await caseFileWith({ status: CASEFILE_STATUS.completed, signers: [{ signOrder: 0, status: SIGNER_STATUS.signed }], documents: [true] });
    expect(await failCaseFile(db, completed.caseFileId, "late", new Date())).toBe(false);
    expect((await db.caseFile.findUniqueOrThrow({ where: { id: completed.caseFileId } })).status).toBe(CASEFILE_STATUS.completed);
  });
});

describe("the expiry jobs", () => {
  it("expires a case file out for signing at its expireAt: expired (7) with sign.casefile.expired, in two round trips; early waits, a rejected one stays", async () => {
    const expireAt = new Date(Date.now() + 60_000);
    const { caseFileId } = await caseFileWith({ status: CASEFILE_STATUS.pending, expireAt, signers: [{ signOrder: 0, status: SIGNER_STATUS.pending }] });
    expect(await countedStatements(() => expireCaseFile(db, caseFileId))).toEqual({ result: { kind: "early", at: expireAt }, roundTrips: 2, transactions: 1 });
    expect(await countedStatements(() => expireCaseFile(db, caseFileId, expireAt))).toEqual({ result: { kind: "expired" }, roundTrips: 2, transactions: 1 });
    expect(await db.caseFile.findUniqueOrThrow({ where: { id: caseFileId } })).toMatchObject({ status: CASEFILE_STATUS.expired, expiredAt: expireAt });
    expect(await events(caseFileId)).toEqual([{ type: "sign.casefile.expired", signerId: undefined, caseFileStatus: CASEFILE_STATUS.expired }]);
    expect((await log(caseFileId)).map((l) => l.event)).toEqual(["expired"]);
    expect(await expireCaseFile(db, caseFileId, expireAt)).toEqual({ kind: "unchanged" });

    // Activated and waiting for its sendAt: expires too; a rejected one does not.
    const waiting = await caseFileWith({ expireAt: new Date(), signers: [{ signOrder: 0 }] });
    expect(await expireCaseFile(db, waiting.caseFileId)).toEqual({ kind: "expired" });
    const rejected = await caseFileWith({ status: CASEFILE_STATUS.rejected, expireAt: new Date(), signers: [{ signOrder: 0 }] });
    expect(await expireCaseFile(db, rejected.caseFileId)).toEqual({ kind: "unchanged" });
    expect(await events(rejected.caseFileId)).toEqual([]);
  });

  it("ends an unsigned signer's access at its expireAt (expiredAt, status kept, no event) in three round trips; early waits, a signed signer stays", async () => {
    const expireAt = new Date(Date.now() + 60_000);
    const { caseFileId, signerIds } = await caseFileWith({
      status: CASEFILE_STATUS.pending,
      signers: [
        { signOrder: 0, status: SIGNER_STATUS.pending, expireAt },
        { signOrder: 0, status: SIGNER_STATUS.signed, expireAt: new Date() },
      ],
    });
    const [waiting, signed] = signerIds as [number, number];
    expect(await countedStatements(() => expireSigner(db, waiting))).toEqual({ result: { kind: "early", at: expireAt }, roundTrips: 3, transactions: 1 });
    expect(await countedStatements(() => expireSigner(db, waiting, expireAt))).toEqual({
      result: { kind: "expired", caseFileId },
      roundTrips: 3,
      transactions: 1,
    });
    expect(await db.signer.findUniqueOrThrow({ where: { id: waiting } })).toMatchObject({ status: SIGNER_STATUS.pending, expiredAt: expireAt });
    // A repeat (its advance may not have been enqueued) reports it again and changes nothing.
    expect(await expireSigner(db, waiting, new Date(expireAt.getTime() + 1_000))).toEqual({ kind: "expired", caseFileId });
    expect((await db.signer.findUniqueOrThrow({ where: { id: waiting } })).expiredAt).toEqual(expireAt);
    expect(await expireSigner(db, signed)).toEqual({ kind: "unchanged" });
    expect((await db.signer.findUniqueOrThrow({ where: { id: signed } })).expiredAt).toBeNull();
    expect(await events(caseFileId)).toEqual([]);
    expect(await countedStatements(() => expireSigner(db, 2_000_000_000))).toEqual({ result: { kind: "unchanged" }, roundTrips: 2, transactions: 1 });
  });
});

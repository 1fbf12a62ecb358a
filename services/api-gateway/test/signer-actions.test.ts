import type { CustomerCredentials } from "@esign/accounts";
import type { Db } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { countedStatements, openCountedDatabase, type CountedDatabase } from "../../../test/support/statement-counts";
import { recordOpened, recordRejection, recordRequestOpened, recordSignature, type Signature } from "../src/signing/signer-actions";

/*
 * The signer's own actions against PostgreSQL: what each writes (the change, its events and their log
 * entries, all or nothing) and in how many round trips. A signature or a rejection is one transaction
 * of three round trips (BEGIN with the case file's lock, the signer's lock, the change with its events
 * and the COMMIT); a counted opening two (BEGIN with the claim, the event with the COMMIT); the
 * tracking pixel's requestOpened three (BEGIN with the signer's lock, the case file and the recent
 * check, the mark and the event with the COMMIT).
 */

let counted: CountedDatabase;
let db: Db;
let customer: CustomerCredentials;

beforeAll(async () => {
  counted = await openCountedDatabase("signer_actions", "Signer actions A/S");
  ({ db, customer } = counted);
}, 60_000);

afterAll(() => counted?.close());

/** A sent case file (pending) with `signers` pending signers. */
async function sentCaseFile(signers = 2): Promise<{ caseFileId: number; signerIds: number[] }> {
  const cf = await db.caseFile.create({
    data: { customerId: customer.customerId, userId: customer.userId, title: "Lejekontrakt", status: CASEFILE_STATUS.pending, sentAt: new Date() },
  });
  const signerIds: number[] = [];
  for (let i = 0; i < signers; i++) {
    const s = await db.signer.create({
      data: { caseFileId: cf.id, name: `Signer ${i}`, email: `s${i}@example.com`, status: SIGNER_STATUS.pending, notification: {} },
    });
    signerIds.push(s.id);
  }
  return { caseFileId: cf.id, signerIds };
}

const evidence = { ip: "192.0.2.7", userAgent: "Mozilla/5.0 (test)" };
const textSignature = (name: string): Signature => ({ method: "text", value: name, imageUpload: false, evidence, identity: null });

async function eventsOf(caseFileId: number): Promise<string[]> {
  const events = await db.event.findMany({ where: { customerId: customer.customerId }, orderBy: { seq: "asc" } });
  return events
    .filter((e) => {
      const p = e.payload as { id?: number; caseFile?: { id?: number } };
      return (e.topic === "casefile" ? p.id : p.caseFile?.id) === caseFileId;
    })
    .map((e) => e.eventType);
}

const logOf = async (caseFileId: number) =>
  (await db.logEntry.findMany({ where: { caseFileId }, orderBy: { id: "asc" } })).map((l) => ({ event: l.event, signerId: l.signerId, ip: l.ip }));

describe("the signer's actions", () => {
  it("a signature is one transaction of three round trips: the signer signed with its evidence, the event and its log entry", async () => {
    const { caseFileId, signerIds } = await sentCaseFile();
    const signerId = signerIds[0]!;
    const run = await countedStatements(() => recordSignature(db, { signerId, caseFileId }, textSignature("Signer 0"), () => undefined));
    expect(run).toEqual({ result: { signerId, caseFileStatus: CASEFILE_STATUS.pending }, roundTrips: 3, transactions: 1 });
    expect(await db.signer.findUniqueOrThrow({ where: { id: signerId } })).toMatchObject({
      status: SIGNER_STATUS.signed,
      signatureMethod: "text",
      signatureValue: "Signer 0",
      actionIp: evidence.ip,
      actionUserAgent: evidence.userAgent,
    });
    expect(await eventsOf(caseFileId)).toEqual(["sign.signer.signed"]);
    expect(await logOf(caseFileId)).toEqual([{ event: "signed", signerId, ip: evidence.ip }]);
    // The other signer and the case file are untouched: the case file advances in the worker.
    expect((await db.signer.findUniqueOrThrow({ where: { id: signerIds[1]! } })).status).toBe(SIGNER_STATUS.pending);
    expect((await db.caseFile.findUniqueOrThrow({ where: { id: caseFileId } })).status).toBe(CASEFILE_STATUS.pending);
  });

  it("an uploaded image's signature writes both signed events, and one log entry (the image variant is none)", async () => {
    const { caseFileId, signerIds } = await sentCaseFile(1);
    const signerId = signerIds[0]!;
    const sig: Signature = { method: "image", value: "ab".repeat(32), imageUpload: true, evidence, identity: null };
    await recordSignature(db, { signerId, caseFileId }, sig, () => undefined);
    expect(await eventsOf(caseFileId)).toEqual(["sign.signer.signed", "sign.signer.signedWithImageUploadAndNAP"]);
    expect(await logOf(caseFileId)).toEqual([{ event: "signed", signerId, ip: evidence.ip }]);
  });

  it("a refused action writes nothing: a signer who signed already, or a recheck that throws under the locks", async () => {
    const { caseFileId, signerIds } = await sentCaseFile();
    await recordSignature(db, { signerId: signerIds[0]!, caseFileId }, textSignature("Signer 0"), () => undefined);
    await expect(recordSignature(db, { signerId: signerIds[0]!, caseFileId }, textSignature("again"), () => undefined)).rejects.toMatchObject({
      code: "already_signed",
    });
    const refused = new Error("method not allowed");
    await expect(
      recordSignature(db, { signerId: signerIds[1]!, caseFileId }, textSignature("Signer 1"), () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect((await db.signer.findUniqueOrThrow({ where: { id: signerIds[1]! } })).status).toBe(SIGNER_STATUS.pending);
    expect(await eventsOf(caseFileId)).toEqual(["sign.signer.signed"]);
    // The connection went back to the pool out of its transaction: the next action commits.
    await recordSignature(db, { signerId: signerIds[1]!, caseFileId }, textSignature("Signer 1"), () => undefined);
    expect(await eventsOf(caseFileId)).toEqual(["sign.signer.signed", "sign.signer.signed"]);
  });

  it("a rejection is one transaction of three round trips: signer and case file rejected, both events and log entries", async () => {
    const { caseFileId, signerIds } = await sentCaseFile();
    const signerId = signerIds[1]!;
    const run = await countedStatements(() => recordRejection(db, { signerId, caseFileId }, "Wrong address", evidence));
    expect(run).toEqual({ result: { signerId, caseFileStatus: CASEFILE_STATUS.rejected }, roundTrips: 3, transactions: 1 });
    expect(await db.signer.findUniqueOrThrow({ where: { id: signerId } })).toMatchObject({ status: SIGNER_STATUS.rejected, rejectReason: "Wrong address" });
    expect(await db.caseFile.findUniqueOrThrow({ where: { id: caseFileId } })).toMatchObject({
      status: CASEFILE_STATUS.rejected,
      rejectedAt: expect.any(Date),
    });
    expect(await eventsOf(caseFileId)).toEqual(["sign.signer.rejected", "sign.casefile.rejected"]);
    expect((await logOf(caseFileId)).map((l) => l.event)).toHaveLength(2);
    // The case file is closed: the other signer can no longer sign.
    await expect(recordSignature(db, { signerId: signerIds[0]!, caseFileId }, textSignature("Signer 0"), () => undefined)).rejects.toMatchObject({
      code: "casefile_rejected",
    });
  });

  it("an opening counts once per interval, in two round trips either way", async () => {
    const { caseFileId, signerIds } = await sentCaseFile(1);
    const signerId = signerIds[0]!;
    const caseFile = { id: caseFileId, status: CASEFILE_STATUS.pending, customerId: customer.customerId };
    const now = new Date();
    expect(await countedStatements(() => recordOpened(db, { id: signerId }, caseFile, evidence, now))).toEqual({
      result: true,
      roundTrips: 2,
      transactions: 1,
    });
    expect(await countedStatements(() => recordOpened(db, { id: signerId }, caseFile, evidence, new Date(now.getTime() + 1_000)))).toEqual({
      result: false,
      roundTrips: 2,
      transactions: 1,
    });
    expect(await eventsOf(caseFileId)).toEqual(["sign.signer.opened"]);
  });

  it("the tracking pixel's requestOpened: once a minute per signer, the first opening kept, in three round trips; concurrent fetches write one", async () => {
    const { caseFileId, signerIds } = await sentCaseFile(2);
    const [first, second] = signerIds as [number, number];
    expect(await countedStatements(() => recordRequestOpened(db, first, evidence))).toEqual({ result: true, roundTrips: 3, transactions: 1 });
    const openedAt = (await db.signer.findUniqueOrThrow({ where: { id: first } })).requestOpenedAt;
    expect(openedAt).toEqual(expect.any(Date));
    expect(await logOf(caseFileId)).toEqual([{ event: "requestOpened", signerId: first, ip: evidence.ip }]);
    // Within the minute: no event, and requestOpenedAt is still the first opening.
    expect(await countedStatements(() => recordRequestOpened(db, first, evidence))).toEqual({ result: false, roundTrips: 3, transactions: 1 });
    expect((await db.signer.findUniqueOrThrow({ where: { id: first } })).requestOpenedAt).toEqual(openedAt);
    // A mail client fetching the image twice at once: the signer's lock orders them, the second sees the first's event.
    const racing = await Promise.all([recordRequestOpened(db, second, evidence), recordRequestOpened(db, second, evidence)]);
    expect(racing.filter(Boolean)).toHaveLength(1);
    expect(await eventsOf(caseFileId)).toEqual(["sign.signer.requestOpened", "sign.signer.requestOpened"]);
    // A minute later it counts again, and requestOpenedAt stays the first opening.
    await db.event.updateMany({ where: { customerId: customer.customerId }, data: { occurredAt: new Date(Date.now() - 120_000) } });
    expect(await recordRequestOpened(db, first, evidence)).toBe(true);
    expect((await db.signer.findUniqueOrThrow({ where: { id: first } })).requestOpenedAt).toEqual(openedAt);
    // A deleted signer's pixel records nothing: BEGIN with the lock, then the COMMIT.
    await db.event.updateMany({ where: { customerId: customer.customerId }, data: { occurredAt: new Date(Date.now() - 120_000) } });
    await db.signer.update({ where: { id: second }, data: { status: SIGNER_STATUS.deleted } });
    expect(await countedStatements(() => recordRequestOpened(db, second, evidence))).toEqual({ result: false, roundTrips: 2, transactions: 1 });
    expect(await eventsOf(caseFileId)).toHaveLength(3);
  });
});

import { createCustomer, type CustomerCredentials } from "@esign/accounts";
import { countStatements, createPrisma, sqlPool, type Db } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { TEST_ENCRYPTION_KEY } from "../../../test/support/api";
import { countedStatements } from "../../../test/support/statement-counts";
import { createWorld, type World } from "../../../test/support/webhook-world";
import { activateSigner } from "../src/domain/activate-signer";
import { sendCaseFile } from "../src/domain/send-casefile";

/*
 * The send job (a case file sent at its sendAt, or a draft the user sent) and the activate-signer job
 * (a signer's activeAt came) against PostgreSQL: what each changes, and in how many round trips. Each
 * is one transaction of three: BEGIN with the case file's lock, the signers, the change with the
 * COMMIT (or the COMMIT alone). The timers suite drives activate-signer through its job; the archive
 * and SDK suites send drafts through the send job.
 */

let world: World;
let db: Db;
let customer: CustomerCredentials;

beforeAll(async () => {
  world = await createWorld("send_activate");
  db = createPrisma(world.databaseUrl, 2);
  countStatements(sqlPool(db));
  customer = await createCustomer(db, { name: "Send A/S" }, TEST_ENCRYPTION_KEY);
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
  await world?.close();
});

interface Setup {
  status?: number;
  expireAt?: Date;
  sendSigningRequests?: boolean;
  signers: { signOrder: number; status?: number; activeAt?: Date }[];
}

async function caseFileWith({ status = CASEFILE_STATUS.new, expireAt, sendSigningRequests, signers }: Setup) {
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
  return { caseFileId: cf.id, signerIds: ids };
}

const events = async (caseFileId: number) =>
  (await db.event.findMany({ where: { customerId: customer.customerId }, orderBy: { seq: "asc" } }))
    .filter((e) => (e.payload as { caseFile?: { id?: number } }).caseFile?.id === caseFileId)
    .map((e) => ({
      type: e.eventType,
      signerId: (e.payload as { id: number }).id,
      caseFileStatus: (e.payload as { caseFile: { status: number } }).caseFile.status,
    }));

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

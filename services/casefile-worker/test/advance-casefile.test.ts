import type { CustomerCredentials } from "@esign/accounts";
import type { Db } from "@esign/db";
import { CASEFILE_STATUS, SIGNER_STATUS } from "@esign/schema";
import { countedStatements, openCountedDatabase, type CountedDatabase } from "../../../test/support/statement-counts";
import { advanceCaseFile } from "../src/domain/advance-casefile";

/*
 * The advance (after every signature, deletion or expiry of a signer) against PostgreSQL: what it
 * changes and in how many round trips. One transaction of three: BEGIN with the case file's lock,
 * the signers, the change with the COMMIT (or the COMMIT alone); two for a case file that is not
 * pending. The lifecycle suites (signer-journey, timers, finalization) drive it through the jobs.
 */

let counted: CountedDatabase;
let db: Db;
let customer: CustomerCredentials;

beforeAll(async () => {
  counted = await openCountedDatabase("advance_casefile", "Advance A/S");
  ({ db, customer } = counted);
}, 60_000);

afterAll(() => counted?.close());

/** A pending case file: its signers' sign orders and statuses as given. */
async function caseFileWith(signers: { signOrder: number; status: number }[], status: number = CASEFILE_STATUS.pending) {
  const cf = await db.caseFile.create({ data: { customerId: customer.customerId, userId: customer.userId, title: "Rounds", status, sentAt: new Date() } });
  const ids: number[] = [];
  for (const [i, s] of signers.entries()) {
    ids.push((await db.signer.create({ data: { caseFileId: cf.id, name: `Signer ${i}`, email: `s${i}@example.com`, notification: {}, ...s } })).id);
  }
  return { caseFileId: cf.id, signerIds: ids };
}

const events = async (caseFileId: number) =>
  (await db.event.findMany({ where: { customerId: customer.customerId }, orderBy: { seq: "asc" } }))
    .filter((e) => (e.payload as { caseFile?: { id?: number } }).caseFile?.id === caseFileId)
    .map((e) => ({ type: e.eventType, signerId: (e.payload as { id: number }).id }));

describe("advanceCaseFile", () => {
  it("activates the next round when the current one has signed: both signers pending, their events in signer order, in three round trips", async () => {
    const { caseFileId, signerIds } = await caseFileWith([
      { signOrder: 0, status: SIGNER_STATUS.signed },
      { signOrder: 1, status: SIGNER_STATUS.new },
      { signOrder: 1, status: SIGNER_STATUS.new },
      { signOrder: 2, status: SIGNER_STATUS.new },
    ]);
    const now = new Date();
    const run = await countedStatements(() => advanceCaseFile(db, caseFileId, now));
    expect(run.roundTrips).toBe(3);
    expect(run.transactions).toBe(1);
    expect(run.result.outcome).toEqual({ kind: "pending", activated: [signerIds[1], signerIds[2]] });
    expect(run.result.state?.signers.map((s) => s.status)).toEqual([SIGNER_STATUS.signed, SIGNER_STATUS.pending, SIGNER_STATUS.pending, SIGNER_STATUS.new]);
    const rows = await db.signer.findMany({ where: { caseFileId }, orderBy: { id: "asc" } });
    expect(rows.map((s) => s.status)).toEqual([SIGNER_STATUS.signed, SIGNER_STATUS.pending, SIGNER_STATUS.pending, SIGNER_STATUS.new]);
    expect(rows[1]!.activatedAt?.getTime()).toBe(now.getTime());
    expect(await events(caseFileId)).toEqual([
      { type: "sign.signer.requestActivated", signerId: signerIds[1] },
      { type: "sign.signer.requestActivated", signerId: signerIds[2] },
    ]);
    expect(await db.logEntry.count({ where: { caseFileId, event: "requestActivated" } })).toBe(2);

    // Run again over the same state: nobody is activated twice, no event, three round trips.
    const again = await countedStatements(() => advanceCaseFile(db, caseFileId));
    expect(again).toMatchObject({ roundTrips: 3, transactions: 1, result: { outcome: { kind: "pending", activated: [] } } });
    expect(await events(caseFileId)).toHaveLength(2);
  });

  it("moves a case file everyone taking part signed to signed (4), without an event; a deleted signer takes no part", async () => {
    const { caseFileId } = await caseFileWith([
      { signOrder: 0, status: SIGNER_STATUS.signed },
      { signOrder: 0, status: SIGNER_STATUS.deleted },
      { signOrder: 1, status: SIGNER_STATUS.signed },
    ]);
    const run = await countedStatements(() => advanceCaseFile(db, caseFileId));
    expect(run).toMatchObject({
      roundTrips: 3,
      transactions: 1,
      result: { outcome: { kind: "signed" }, state: { caseFile: { status: CASEFILE_STATUS.signed } } },
    });
    expect(await db.caseFile.findUniqueOrThrow({ where: { id: caseFileId } })).toMatchObject({ status: CASEFILE_STATUS.signed, signedAt: expect.any(Date) });
    expect(await events(caseFileId)).toEqual([]);
  });

  it("leaves a case file that is not pending, or does not exist, alone in two round trips", async () => {
    const { caseFileId } = await caseFileWith([{ signOrder: 0, status: SIGNER_STATUS.new }], CASEFILE_STATUS.rejected);
    expect(await countedStatements(() => advanceCaseFile(db, caseFileId))).toMatchObject({
      roundTrips: 2,
      transactions: 1,
      result: { outcome: { kind: "unchanged" } },
    });
    expect((await db.signer.findFirstOrThrow({ where: { caseFileId } })).status).toBe(SIGNER_STATUS.new);
    expect(await countedStatements(() => advanceCaseFile(db, 2_000_000_000))).toMatchObject({ result: { outcome: { kind: "unchanged" }, state: undefined } });
  });
});

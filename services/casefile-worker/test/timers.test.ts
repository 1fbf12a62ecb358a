import { closeTestDb, testDb } from "../../../test/support/api";
import { makePdf } from "../../../test/support/pdf";
import type { System } from "../../../test/support/system";
import {
  createCaseFile,
  customerToken,
  eventsOf,
  ofType,
  recordSignature,
  sleep,
  startLifecycleSystem,
  testProducer,
  until,
} from "../../../test/support/lifecycle-system";

/*
 * Timing comes from delayed BullMQ jobs only. The worker's sweeper runs every 15 s and acts on work
 * overdue by 30 s, so a change landing within about a second of its due time can only come from the
 * delayed job aimed at that time.
 */
const PUNCTUAL_MS = 2_500;

let system: System;
let queue: ReturnType<typeof testProducer>;
let customerId: number;
let token: string;
let pdf: Buffer;

beforeAll(async () => {
  system = await startLifecycleSystem();
  queue = testProducer();
  ({ customerId, token } = await customerToken(system));
  pdf = await makePdf("Timed contract");
});

afterAll(async () => {
  await queue?.close();
  await system?.stop();
  await closeTestDb();
});

const inSeconds = (s: number) => Math.ceil(Date.now() / 1000) + s;
const signer = (name: string, extra: Record<string, unknown> = {}) => ({ name, email: `${name.toLowerCase()}@example.com`, ...extra });
const create = (caseFile: Record<string, unknown>) =>
  createCaseFile(system, token, { title: "Timed", documents: [{ title: "Contract", name: "contract.pdf" }], ...caseFile }, [
    { name: "contract.pdf", content: pdf },
  ]);

describe("lifecycle timers", () => {
  it("expires a pending case file at its expireAt (7, sign.casefile.expired)", async () => {
    // Twelve seconds out: the creation job sends the case file only if its expireAt is still ahead, and
    // on a loaded CI machine create plus job took longer than 3 s (then 6 s): the case file stayed new
    // (0) and went on to expire unsent. The precondition is checked, not assumed.
    const expireAt = inSeconds(12);
    const id = await create({ expireAt, signers: [signer("Eve")] });
    const db = testDb();
    expect((await db.caseFile.findUniqueOrThrow({ where: { id } })).status).toBe(1);

    // An expire job that fires too early (expireAt moved, clock skew) goes back to sleep until expireAt.
    const early = "expire-early-test";
    await queue.producer.enqueue("casefile", "expire", { caseFileId: id }, { jobId: early });
    await until(async () => (await (await queue.producer.queue("casefile").getJob(early))?.getState()) === "delayed", 5_000);
    expect((await db.caseFile.findUniqueOrThrow({ where: { id } })).status).toBe(1);

    await until(async () => (await db.caseFile.findUniqueOrThrow({ where: { id } })).status === 7, 15_000);
    await until(async () => (await (await queue.producer.queue("casefile").getJob(early))?.getState()) === "completed", 5_000);
    const cf = await db.caseFile.findUniqueOrThrow({ where: { id } });
    expect(cf.expiredAt!.getTime()).toBeGreaterThanOrEqual(expireAt * 1000);
    expect(cf.expiredAt!.getTime()).toBeLessThan(expireAt * 1000 + PUNCTUAL_MS);
    const events = await eventsOf(customerId, id);
    expect(ofType(events, "sign.casefile.expired").map((e) => e.payload)).toEqual([{ id, status: 7 }]);

    // A signature arriving after expiry changes nothing: advance leaves an expired case file alone.
    const [eve] = await db.signer.findMany({ where: { caseFileId: id } });
    const { eventId } = await recordSignature(eve!.id);
    await queue.producer.enqueue("casefile", "advance", { caseFileId: id }, { jobId: `advance-${eventId}` });
    await until(async () => (await (await queue.producer.queue("casefile").getJob(`advance-${eventId}`))?.getState()) === "completed");
    expect((await db.caseFile.findUniqueOrThrow({ where: { id } })).status).toBe(7);
  }, 60_000);

  it("keeps a signer with a future activeAt new (0) until then, and activates it then", async () => {
    const activeAt = inSeconds(3);
    const id = await create({ signers: [signer("Frank"), signer("Grace", { activeAt })] });
    const db = testDb();
    const [frank, grace] = await db.signer.findMany({ where: { caseFileId: id }, orderBy: { id: "asc" } });
    expect([frank!.status, grace!.status]).toEqual([1, 0]);
    let activations = ofType(await eventsOf(customerId, id), "sign.signer.requestActivated");
    expect(activations.map((e) => (e.payload as { id: number }).id)).toEqual([frank!.id]);

    await sleep(Math.max(0, activeAt * 1000 - Date.now() - 700));
    expect((await db.signer.findUniqueOrThrow({ where: { id: grace!.id } })).status).toBe(0);

    await until(async () => (await db.signer.findUniqueOrThrow({ where: { id: grace!.id } })).status === 1, 10_000);
    const activated = await db.signer.findUniqueOrThrow({ where: { id: grace!.id } });
    expect(activated.activatedAt!.getTime()).toBeGreaterThanOrEqual(activeAt * 1000);
    expect(activated.activatedAt!.getTime()).toBeLessThan(activeAt * 1000 + PUNCTUAL_MS);
    activations = ofType(await eventsOf(customerId, id), "sign.signer.requestActivated");
    expect(activations.map((e) => e.payload)).toEqual([
      { id: frank!.id, caseFile: { id, status: 1 } },
      { id: grace!.id, caseFile: { id, status: 1 } },
    ]);
  }, 30_000);

  it("ends an unsigned signer's access at its expireAt (expiredAt, status kept, no event) and keeps the case file waiting", async () => {
    const expireAt = inSeconds(3);
    const id = await create({ signers: [signer("Hank", { expireAt }), signer("Ida"), signer("Jon", { signOrder: 1 })] });
    const db = testDb();
    const [hank, ida, jon] = await db.signer.findMany({ where: { caseFileId: id }, orderBy: { id: "asc" } });
    const eventsBefore = (await eventsOf(customerId, id)).length;

    await until(async () => (await db.signer.findUniqueOrThrow({ where: { id: hank!.id } })).expiredAt !== null, 10_000);
    const expired = await db.signer.findUniqueOrThrow({ where: { id: hank!.id } });
    expect(expired.status).toBe(1);
    expect(expired.expiredAt!.getTime()).toBeGreaterThanOrEqual(expireAt * 1000);
    expect(expired.expiredAt!.getTime()).toBeLessThan(expireAt * 1000 + PUNCTUAL_MS);

    // Ida signs: the round still holds (Hank never signed), so Jon stays new and the case file pending.
    const { eventId } = await recordSignature(ida!.id);
    await queue.producer.enqueue("casefile", "advance", { caseFileId: id }, { jobId: `advance-${eventId}` });
    await until(async () => (await (await queue.producer.queue("casefile").getJob(`advance-${eventId}`))?.getState()) === "completed");
    expect((await db.signer.findUniqueOrThrow({ where: { id: jon!.id } })).status).toBe(0);
    expect((await db.caseFile.findUniqueOrThrow({ where: { id } })).status).toBe(1);
    // Only Ida's own sign.signer.signed was added: signer expiry has no event type in the spec.
    const events = await eventsOf(customerId, id);
    expect(events.slice(eventsBefore).map((e) => e.eventType)).toEqual(["sign.signer.signed"]);
  }, 30_000);
});

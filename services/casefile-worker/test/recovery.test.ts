import { closeTestDb, testDb } from "../../../test/support/api";
import { makePdf } from "../../../test/support/pdf";
import type { System } from "../../../test/support/system";
import type { WorkerContext } from "../src/context";
import { jobIds } from "../src/domain/casefile-jobs";
import { sweepLifecycle } from "../src/domain/sweep-lifecycle";
import {
  createCaseFile,
  customerToken,
  eventsOf,
  ofType,
  recordSignature,
  sleep,
  startLifecycleSystem,
  testProducer,
  testWorkerContext,
  until,
} from "../../../test/support/lifecycle-system";

/*
 * The sweeper is the safety net for lifecycle jobs lost between a commit and Redis (or with Redis).
 * The running worker sweeps every 15 s for work overdue by 30 s; here the sweep is called directly
 * with no grace period, and the running worker executes what it enqueues.
 */

let system: System;
let queue: ReturnType<typeof testProducer>;
let ctx: WorkerContext;
let customerId: number;
let token: string;
let pdf: Buffer;

beforeAll(async () => {
  system = await startLifecycleSystem();
  queue = testProducer();
  ctx = await testWorkerContext(queue, "recovery-test");
  ({ customerId, token } = await customerToken(system));
  pdf = await makePdf(`Recovered ${Math.random().toString(36).slice(2)}`);
});

afterAll(async () => {
  await queue?.close();
  await system?.stop();
  await closeTestDb();
});

const create = (caseFile: Record<string, unknown>) =>
  createCaseFile(system, token, { title: "Recovered", documents: [{ title: "Contract", name: "contract.pdf" }], ...caseFile }, [
    { name: "contract.pdf", content: pdf },
  ]);

describe("the lifecycle sweep", () => {
  it("advances rounds and completes a case file whose advance jobs never arrived", async () => {
    const id = await create({
      signers: [
        { name: "Kim", email: "kim@example.com", signOrder: 0 },
        { name: "Lea", email: "lea@example.com", signOrder: 1 },
      ],
    });
    const db = testDb();
    const [kim, lea] = await db.signer.findMany({ where: { caseFileId: id }, orderBy: { signOrder: "asc" } });

    // Signed, but the advance never reaches the queue: nothing moves on its own.
    await recordSignature(kim!.id);
    await sleep(300);
    expect((await db.signer.findUniqueOrThrow({ where: { id: lea!.id } })).status).toBe(0);
    await sweepLifecycle(ctx, 0);
    await until(async () => (await db.signer.findUniqueOrThrow({ where: { id: lea!.id } })).status === 1);

    await recordSignature(lea!.id);
    // Swept periodically, as the running worker does: a sweep that finds the previous advance job
    // still finishing leaves it alone, and a later sweep replaces it.
    await until(
      async () => {
        if ((await db.caseFile.findUniqueOrThrow({ where: { id } })).status === 5) return true;
        await sweepLifecycle(ctx, 0);
        return false;
      },
      15_000,
      500,
    );

    // Sweeping a finished case file again adds nothing.
    const events = await eventsOf(customerId, id);
    await sweepLifecycle(ctx, 0);
    await sleep(500);
    expect(await eventsOf(customerId, id)).toHaveLength(events.length);
    expect(ofType(events, "sign.signer.requestActivated")).toHaveLength(2);
    expect(ofType(events, "sign.casefile.completed")).toHaveLength(1);
    expect(ofType(events, "sign.signer.finalized")).toHaveLength(2);
  }, 30_000);

  it("expires a case file whose delayed expire job was lost", async () => {
    // 6 s ahead: the expire job must still be waiting when the test takes it away. At 2 s, a create
    // on a starved CI machine took longer than that, the job had already run and was gone.
    const expireAt = Math.ceil(Date.now() / 1000) + 6;
    const id = await create({ expireAt, signers: [{ name: "Max", email: "max@example.com" }] });
    // The creation job adds its case file's delayed jobs just after its commit, which is when create()
    // sees it completed: on a loaded machine the expire job was not there yet when first looked for.
    const casefiles = queue.producer.queue("casefile");
    const lostId = jobIds.expire(id, new Date(expireAt * 1000));
    await until(async () => (await casefiles.getJob(lostId)) !== undefined);
    const lost = await casefiles.getJob(lostId);
    expect({ state: await lost?.getState(), secondsLeft: expireAt - Date.now() / 1000 }).toMatchObject({ state: "delayed" });
    await lost!.remove();

    await sleep(expireAt * 1000 - Date.now() + 500);
    const db = testDb();
    expect((await db.caseFile.findUniqueOrThrow({ where: { id } })).status).toBe(1);
    await sweepLifecycle(ctx, 0);
    await until(async () => (await db.caseFile.findUniqueOrThrow({ where: { id } })).status === 7);
    expect(ofType(await eventsOf(customerId, id), "sign.casefile.expired")).toHaveLength(1);
  }, 30_000);
});

import { randomUUID } from "node:crypto";
import { MailThrottle, Producer, createRedis, type Job } from "@esign/queue";
import { closeTestDb, testDb, watchedCustomer } from "../../../test/support/api";
import { testProducer, testWorkerContext } from "../../../test/support/lifecycle-system";
import type { WorkerContext } from "../src/context";
import { createCaseFileJob } from "../src/jobs/create-casefile.job";

/*
 * The creation job publishes its own case file's events once committed (publishCommittedEvents):
 * the signing requests are in the queue and the events marked relayed with no outbox relay running
 * (none runs in this suite), and when Redis refuses them the case file stands and its events stay
 * unrelayed for the relay's poll.
 */

let queue: ReturnType<typeof testProducer>;
let ctx: WorkerContext;
let customerId: number;
let userId: number;
let files: { name: string; sha256: string; size: number }[];

beforeAll(async () => {
  queue = testProducer();
  ctx = await testWorkerContext(queue, "create-job-test");
  const customer = await testDb().customer.create({ data: { name: "Publisher Ltd" } });
  customerId = customer.id;
  userId = (await testDb().user.create({ data: { customerId, email: `owner-${randomUUID()}@publisher.example`, name: "Owner" } })).id;
  const content = Buffer.from(`%PDF-1.7 publish ${randomUUID()} %%EOF`);
  files = [{ name: "contract.pdf", sha256: await ctx.storage.put(content), size: content.length }];
});

afterAll(async () => {
  await queue?.close();
  await closeTestDb();
});

/** A stored creation job of two signers, sent at once; runs the job as the worker does. */
async function runJob(
  on: WorkerContext,
  owner = { customerId, userId },
  extra: Record<string, unknown> = {},
): Promise<{ caseFileId: number; events: { id: string; relayedAt: Date | null; payload: unknown }[] }> {
  const id = randomUUID();
  const payload = {
    title: "Published",
    documents: [{ title: "Contract", name: "contract.pdf", signable: true }],
    signers: [
      { name: "Ann", email: "ann@example.com", role: "signer" },
      { name: "Ben", email: "ben@example.com", role: "signer" },
    ],
    activateCaseFile: true,
    ...extra,
  };
  await testDb().creationJob.create({ data: { id, ...owner, payloadHash: randomUUID(), payload, files, status: "pending" } });
  await createCaseFileJob(on, { creationJobId: id }, { attemptsMade: 0, opts: { attempts: 3 } } as unknown as Job);
  const job = await testDb().creationJob.findUniqueOrThrow({ where: { id } });
  expect(job.status).toBe("completed");
  const caseFileId = (job.result as { caseFile: { id: number } }).caseFile.id;
  const events = (
    await testDb().event.findMany({ where: { customerId: owner.customerId, eventType: "sign.signer.requestActivated" }, orderBy: { seq: "asc" } })
  ).filter((e) => (e.payload as { caseFile: { id: number } }).caseFile.id === caseFileId);
  return { caseFileId, events };
}

describe("the creation job", () => {
  it("publishes its signing requests once committed and marks their events relayed, with no relay running", async () => {
    const { events } = await runJob(ctx);
    expect(events).toHaveLength(2);
    expect(events.every((e) => e.relayedAt !== null)).toBe(true);
    const notifications = queue.producer.queue("notifications");
    for (const event of events) {
      const job = await notifications.getJob(`request-${event.id}`);
      expect(job?.name).toBe("signing-request");
      expect(job?.data).toEqual({ signerId: (event.payload as { id: number }).id, eventId: event.id, customerId });
    }
  });

  it("adds the case file's timers in the same Redis pipeline as its signing requests: one round trip", async () => {
    const expireAt = Math.floor(Date.now() / 1000) + 86_400;
    const enqueueAll = jest.spyOn(ctx.producer, "enqueueAll");
    try {
      const { caseFileId, events } = await runJob(ctx, { customerId, userId }, { expireAt });
      expect(enqueueAll).toHaveBeenCalledTimes(1);
      const added = (enqueueAll.mock.calls[0]?.[0] ?? []).map((j) => `${j.queue}/${j.name}/${j.opts?.jobId}`);
      expect(added).toEqual([...events.map((e) => `notifications/signing-request/request-${e.id}`), `casefile/expire/expire-${caseFileId}-${expireAt * 1000}`]);
      expect(await queue.producer.queue("casefile").getJob(`expire-${caseFileId}-${expireAt * 1000}`)).toBeDefined();
      expect(events.every((e) => e.relayedAt !== null)).toBe(true);
    } finally {
      enqueueAll.mockRestore();
    }
  });

  it("leaves events some subscription wants to the relay: unrelayed, and no job added for them", async () => {
    // The relay would give them a dispatch job named after its batch; published here too, an event
    // relayed again in another batch (after a failed mark) would be delivered twice.
    const watched = await watchedCustomer(["sign.signer.requestActivated"]);
    const { events } = await runJob(ctx, watched);
    expect(events.map((e) => e.relayedAt)).toEqual([null, null]);
    const notifications = queue.producer.queue("notifications");
    expect(await Promise.all(events.map((e) => notifications.getJob(`request-${e.id}`)))).toEqual([undefined, undefined]);
  });

  it("leaves the events unrelayed for the outbox relay when Redis refuses them; the case file stands", async () => {
    // A connection that is gone, with no offline queue and no reconnect: every enqueue fails at once.
    const deadRedis = createRedis(process.env.REDIS_URL ?? "", "producer");
    deadRedis.on("error", () => undefined);
    const refusing = new Producer(deadRedis, process.env.QUEUE_PREFIX ?? "");
    await refusing.queue("notifications").waitUntilReady();
    await refusing.queue("casefile").waitUntilReady();
    deadRedis.disconnect();
    try {
      const { caseFileId, events } = await runJob({ ...ctx, producer: refusing, mailThrottle: new MailThrottle(deadRedis, process.env.QUEUE_PREFIX ?? "", 0) });
      expect(await testDb().caseFile.count({ where: { id: caseFileId } })).toBe(1);
      expect(events.map((e) => e.relayedAt)).toEqual([null, null]);
    } finally {
      await refusing.close().catch(() => {});
      deadRedis.disconnect();
    }
  });

  it("fails a job whose upload is missing from storage, naming the first missing file in upload order; no case file", async () => {
    const id = randomUUID();
    const absent = (name: string) => ({ name, sha256: randomUUID().replaceAll("-", "").repeat(2), size: 10 });
    const stored = [files[0] as { name: string; sha256: string; size: number }, absent("annex.pdf"), absent("terms.pdf")];
    const payload = {
      title: "Missing file",
      documents: stored.map((f, i) => ({ title: `Document ${i + 1}`, name: f.name, signable: i === 0 })),
      signers: [{ name: "Ann", email: "ann@example.com", role: "signer" }],
      activateCaseFile: true,
    };
    await testDb().creationJob.create({ data: { id, customerId, userId, payloadHash: randomUUID(), payload, files: stored, status: "pending" } });
    await createCaseFileJob(ctx, { creationJobId: id }, { attemptsMade: 0, opts: { attempts: 3 } } as unknown as Job);
    const job = await testDb().creationJob.findUniqueOrThrow({ where: { id } });
    expect(job.status).toBe("failed");
    expect(job.errorMessage).toBe('Uploaded file "annex.pdf" is missing from storage');
    expect(await testDb().caseFile.count({ where: { creationJobId: id } })).toBe(0);
  });
});

import { closeTestDb, getToken, newCustomer, postCreate, testDb, waitForJob } from "../support/api";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import { startSystem, type System } from "../support/system";

let system: System;
let pdfs: { name: string; content: Buffer }[];

// Short lock and stall intervals so a dead worker's job is noticed in seconds, not the default 30 s;
// the sweeper every 2 s instead of 15 s, so an orphaned job is found soon after it is 30 s idle.
const WORKER_ENV = { QUEUE_LOCK_DURATION_MS: "2000", QUEUE_STALLED_INTERVAL_MS: "1000", SWEEP_INTERVAL_MS: "2000" };

beforeAll(async () => {
  system = await startSystem(["casefile-worker"], WORKER_ENV, { JOB_POLL_LIMIT_PER_MINUTE: "0" });
  pdfs = [
    { name: "contract.pdf", content: await makePdf("Contract") },
    { name: "appendix.pdf", content: await makePdf("Appendix") },
  ];
});

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("creation jobs that must fail", () => {
  it("fails with the add-on message when an eboks signer is sent by a customer without the mailbox add-on", async () => {
    const token = await getToken(system.gateway.url, await newCustomer({ eboksEnabled: false }));
    const payload = validCaseFile({
      signers: [{ name: "Carl Christensen", channel: "eboks", cpr: "0101701234" }],
      documents: [
        { title: "Contract", name: "contract.pdf" },
        { title: "Appendix", name: "appendix.pdf", signable: false },
      ],
    });
    const created = await postCreate(system.gateway.url, token, payload, pdfs);
    expect(created.status).toBe(200);
    const job = await waitForJob(system.gateway.url, created.body.jobs[0]!.uuid, created.body.jobs[0]!.payloadHash);
    expect(job.jobStatus).toBe("failed");
    expect(job.result).toBeNull();
    expect(job.errorMessage).toMatch(/add-on is disabled/);
    expect(job.errorMessage).toMatch(/must contract/);
    expect(await testDb().caseFile.count({ where: { creationJobId: created.body.jobs[0]!.uuid } })).toBe(0);
  });

  it("completes the same eboks case file when the add-on is enabled", async () => {
    const token = await getToken(system.gateway.url, await newCustomer({ eboksEnabled: true }));
    const payload = validCaseFile({
      signers: [{ name: "Carl Christensen", channel: "eboks", cvr: "12345678:ab1" }],
      documents: [
        { title: "Contract", name: "contract.pdf" },
        { title: "Appendix", name: "appendix.pdf", signable: false },
      ],
    });
    const created = await postCreate(system.gateway.url, token, payload, pdfs);
    const job = await waitForJob(system.gateway.url, created.body.jobs[0]!.uuid, created.body.jobs[0]!.payloadHash);
    expect(job.jobStatus).toBe("completed");
    expect(job.result?.data.signingLinks).toHaveLength(1);
  });

  it("fails when a signer asks for a secure signing method the account does not have", async () => {
    const token = await getToken(system.gateway.url, await newCustomer({ secureSigningMethods: ["mitid.dk"] }));
    const payload = validCaseFile();
    payload.caseFile.signers[0] = { ...payload.caseFile.signers[0]!, secureSigningMethods: ["mitid.dk", "bankid_se"] } as never;
    const created = await postCreate(system.gateway.url, token, payload, pdfs);
    const job = await waitForJob(system.gateway.url, created.body.jobs[0]!.uuid, created.body.jobs[0]!.payloadHash);
    expect(job.jobStatus).toBe("failed");
    expect(job.errorMessage).toMatch(/Secure signing method not enabled/);
    expect(job.errorMessage).toMatch(/bankid_se/);
  });

  it("resolves omitted secure methods to the account's and keeps an explicit empty list empty", async () => {
    const token = await getToken(system.gateway.url, await newCustomer({ secureSigningMethods: ["mitid.dk", "sms"] }));
    const payload = validCaseFile();
    payload.caseFile.signers[1] = { ...payload.caseFile.signers[1]!, secureSigningMethods: [] } as never;
    const created = await postCreate(system.gateway.url, token, payload, pdfs);
    const job = await waitForJob(system.gateway.url, created.body.jobs[0]!.uuid, created.body.jobs[0]!.payloadHash);
    expect(job.jobStatus).toBe("completed");
    const signers = await testDb().signer.findMany({ where: { caseFileId: job.result!.data.caseFile.id }, orderBy: { id: "asc" } });
    expect(signers.map((s) => s.secureSigningMethods)).toEqual([["mitid.dk", "sms"], []]);
  });
});

describe("a worker killed mid-job", () => {
  it("leaves nothing half done: each job ends with exactly one whole case file, by the next worker or by the killed one's already sent statement", async () => {
    const token = await getToken(system.gateway.url, await newCustomer());
    const worker = system.services.find((s) => s.name === "casefile-worker")!;
    const db = testDb();
    let jobIds: string[] = [];
    // Hold a lock that every case file insert needs: the worker gets inside its transaction and waits.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const locker = db.$transaction(
      async (tx) => {
        await tx.$executeRaw`LOCK TABLE "CaseFile" IN EXCLUSIVE MODE`;
        const created = await Promise.all([1, 2, 3].map((i) => postCreate(system.gateway.url, token, validCaseFile({ reference: `kill-${i}` }), pdfs)));
        jobIds = created.map((c) => c.body.jobs[0]!.uuid);
        await until(async () => (await db.creationJob.count({ where: { id: { in: jobIds }, status: "processing" } })) === 3);
        await worker.kill();
        await released;
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
    await until(async () => !worker.isRunning());
    release();
    await locker;
    // A killed worker's case file statement is one autocommit statement: one already sent is run and
    // committed whole once the lock is free, as if the worker had died just after it; one not yet sent
    // writes nothing. Never a part: each case file here has its signers.
    // (One query, one snapshot: a commit landing between two reads cannot make a whole one look partial.)
    const early = await db.caseFile.findMany({ where: { creationJobId: { in: jobIds } }, select: { _count: { select: { signers: true } } } });
    expect(early.map((c) => c._count.signers)).toEqual(early.map(() => 2));

    await system.start("casefile-worker", WORKER_ENV);
    await until(async () => (await db.creationJob.count({ where: { id: { in: jobIds }, status: "completed" } })) === 3, 30_000);
    const caseFiles = await db.caseFile.findMany({ where: { creationJobId: { in: jobIds } } });
    expect(caseFiles).toHaveLength(3);
    expect(new Set(caseFiles.map((c) => c.creationJobId))).toEqual(new Set(jobIds));
    // One signer set per case file: nothing was written twice.
    expect(await db.signer.count({ where: { caseFileId: { in: caseFiles.map((c) => c.id) } } })).toBe(6);
  });

  it("re-enqueues a job that reached PostgreSQL but never reached Redis", async () => {
    const token = await getToken(system.gateway.url, await newCustomer());
    const created = await postCreate(system.gateway.url, token, validCaseFile({ reference: "lost-in-redis" }), pdfs);
    const uuid = created.body.jobs[0]!.uuid;
    await waitForJob(system.gateway.url, uuid, created.body.jobs[0]!.payloadHash);
    // Forge a job row as if the enqueue had failed: pending, old, and unknown to BullMQ.
    const { createHash, randomUUID } = await import("node:crypto");
    const row = await testDb().creationJob.findUniqueOrThrow({ where: { id: uuid } });
    const orphan = randomUUID();
    // A hash of its own: with the first job's, the orphan would be (rightly) aborted as its duplicate.
    const payloadHash = createHash("sha256").update(orphan).digest("hex");
    await testDb().creationJob.create({
      data: { id: orphan, customerId: row.customerId, userId: row.userId, payloadHash, payload: row.payload as object, files: row.files as object },
    });
    await testDb().$executeRaw`UPDATE "CreationJob" SET "updatedAt" = now() - interval '1 minute' WHERE id = ${orphan}::uuid`;
    await until(async () => (await testDb().creationJob.findUniqueOrThrow({ where: { id: orphan } })).status === "completed", 40_000);
    expect(await testDb().caseFile.count({ where: { creationJobId: orphan } })).toBe(1);
  }, 60_000);
});

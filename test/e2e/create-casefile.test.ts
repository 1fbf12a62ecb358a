import { closeTestDb, getJson, getToken, newCustomer, pollOnce, postCreate, testDb, waitForJob } from "../support/api";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import type { ServiceProcess } from "../support/services";
import { startSystem, type System } from "../support/system";

let system: System;
let gateway: ServiceProcess;
let token: string;
let contract: Buffer;
let appendix: Buffer;

const files = () => [
  { name: "contract.pdf", content: contract },
  { name: "appendix.pdf", content: appendix },
];

beforeAll(async () => {
  system = await startSystem(["casefile-worker"], {}, { JOB_POLL_LIMIT_PER_MINUTE: "0" });
  gateway = system.gateway;
  const creds = await newCustomer();
  token = await getToken(gateway.url, creds);
  [contract, appendix] = await Promise.all([makePdf("Contract"), makePdf("Appendix", 2)]);
});

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

describe("case file creation through the running services", () => {
  it("answers 200 with a job, which completes with a case file id and one signing link per signer", async () => {
    const created = await postCreate(gateway.url, token, validCaseFile(), files());
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: "handled", message: "Job created" });
    const [job] = created.body.jobs;
    expect(job?.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(job?.payloadHash).toMatch(/^[0-9a-f]{64}$/);

    const done = await waitForJob(gateway.url, job!.uuid, job!.payloadHash);
    expect(done.jobStatus).toBe("completed");
    expect(done.type).toBe("casefile_creation");
    expect(done.errorMessage).toBeNull();
    expect(done.result?.data.caseFile).toEqual({ id: expect.any(Number), status: 1 });
    const links = done.result!.data.signingLinks;
    expect(links.map((l) => l.name)).toEqual(["Alice Andersen", "Bob Berg"]);
    expect(links.map((l) => l.role)).toEqual(["Employee", "Manager"]);
    for (const l of links) expect(l.signingLink).toMatch(new RegExp(`^${gateway.url}/sign/[A-Za-z0-9_-]{43}$`));
    expect(new Set(links.map((l) => l.signingLink)).size).toBe(2);

    // Tokens are stored hashed: no column anywhere holds the token itself.
    const token0 = links[0]!.signingLink.split("/").pop()!;
    const stored = await testDb().signingLink.findMany({ where: { signer: { caseFileId: done.result!.data.caseFile.id } } });
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toContain(token0);
    const jobRow = await testDb().creationJob.findUniqueOrThrow({ where: { id: job!.uuid } });
    expect(JSON.stringify(jobRow.result)).not.toContain(token0);

    const cf = await getJson<{
      id: number;
      status: number;
      signers: { status: number | null; signOrder: number; signingRequest: { status: number } }[];
      documents: unknown[];
    }>(`${gateway.url}/send/api/v1/casefiles/${done.result!.data.caseFile.id}`, { "X-Auth-Token": token });
    expect(cf.status).toBe(200);
    expect(cf.body.status).toBe(1);
    expect(cf.body.documents).toHaveLength(2);
    // Round 0 is active (request sent; signing request pending), round 1 waits (no signer status; request new).
    expect(cf.body.signers.map((s) => [s.signOrder, s.status, s.signingRequest.status])).toEqual([
      [0, 0, 1],
      [1, null, 0],
    ]);

    const events = await testDb().event.findMany({ where: { payload: { path: ["caseFile", "id"], equals: done.result!.data.caseFile.id } } });
    expect(events.map((e) => e.eventType)).toEqual(["sign.signer.requestActivated"]);
  });

  it("with activateCaseFile false completes with status 0 and signingLinks []", async () => {
    const created = await postCreate(gateway.url, token, validCaseFile({ activateCaseFile: false }), files());
    expect(created.status).toBe(200);
    const [job] = created.body.jobs;
    const done = await waitForJob(gateway.url, job!.uuid, job!.payloadHash);
    expect(done.jobStatus).toBe("completed");
    expect(done.result).toEqual({ data: { caseFile: { id: expect.any(Number), status: 0 }, signingLinks: [] } });
    expect(await testDb().signingLink.count({ where: { signer: { caseFileId: done.result!.data.caseFile.id } } })).toBe(0);
  });

  it("with sendAt in the future keeps status 0 and schedules the send", async () => {
    // 6 s ahead: the creation job must still find it in the future on a starved CI machine.
    const sendAt = Math.floor(Date.now() / 1000) + 6;
    const created = await postCreate(gateway.url, token, validCaseFile({ sendAt }), files());
    const [job] = created.body.jobs;
    const done = await waitForJob(gateway.url, job!.uuid, job!.payloadHash);
    expect(done.result?.data.caseFile.status).toBe(0);
    expect(done.result?.data.signingLinks).toHaveLength(2);
    const id = done.result!.data.caseFile.id;
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status === 0) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await testDb().caseFile.findUniqueOrThrow({ where: { id } })).status;
    }
    const sentAt = (await testDb().caseFile.findUniqueOrThrow({ where: { id } })).sentAt;
    expect(status).toBe(1);
    expect(sentAt!.getTime()).toBeGreaterThanOrEqual(sendAt * 1000 - 50);
  });

  it("replays an Idempotency-Key with the same payload and refuses it with another (422)", async () => {
    const key = `key-${Date.now()}`;
    const first = await postCreate(gateway.url, token, validCaseFile(), files(), { "Idempotency-Key": key });
    const again = await postCreate(gateway.url, token, validCaseFile(), files(), { "Idempotency-Key": key });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await postCreate(gateway.url, token, validCaseFile({ title: "Another title" }), files(), { "Idempotency-Key": key });
    expect(other.status).toBe(422);
    expect(other.body.error).toBe("idempotency_mismatch");
    expect(await testDb().creationJob.count({ where: { idempotencyKey: key } })).toBe(1);
  });

  it("computes the same payloadHash for the same request; the repeat ends as aborted_duplicated (Penneo's status) with no case file", async () => {
    const a = await postCreate(gateway.url, token, validCaseFile({ reference: "same" }), files());
    const b = await postCreate(gateway.url, token, validCaseFile({ reference: "same" }), files());
    const [ja, jb] = [a.body.jobs[0]!, b.body.jobs[0]!];
    expect(ja.payloadHash).toBe(jb.payloadHash);
    expect(ja.uuid).not.toBe(jb.uuid);
    const [doneA, doneB] = await Promise.all([waitForJob(gateway.url, ja.uuid, ja.payloadHash), waitForJob(gateway.url, jb.uuid, jb.payloadHash)]);
    expect(doneA.jobStatus).toBe("completed");
    expect(doneB.jobStatus).toBe("aborted_duplicated");
    expect(doneB.result).toBeNull();
    expect(doneB.errorMessage).toContain(ja.uuid);
    expect(await testDb().caseFile.count({ where: { creationJobId: jb.uuid } })).toBe(0);
    expect(await testDb().caseFile.count({ where: { reference: "same" } })).toBe(1);
  });

  it("never takes a repeat sent with its own Idempotency-Key for a duplicate: its client said what a repeat is", async () => {
    const data = validCaseFile({ reference: "keyed-twice" });
    const a = await postCreate(gateway.url, token, data, files(), { "Idempotency-Key": `a-${Date.now()}` });
    const b = await postCreate(gateway.url, token, data, files(), { "Idempotency-Key": `b-${Date.now()}` });
    const done = await Promise.all([a, b].map((c) => waitForJob(gateway.url, c.body.jobs[0]!.uuid, c.body.jobs[0]!.payloadHash)));
    expect(done.map((d) => d.jobStatus)).toEqual(["completed", "completed"]);
    expect(await testDb().caseFile.count({ where: { reference: "keyed-twice" } })).toBe(2);
  });

  it("serves the uploaded PDF back to the owner", async () => {
    const created = await postCreate(gateway.url, token, validCaseFile({ reference: "served-back" }), files());
    const [job] = created.body.jobs;
    const done = await waitForJob(gateway.url, job!.uuid, job!.payloadHash);
    const cf = await testDb().caseFile.findUniqueOrThrow({ where: { id: done.result!.data.caseFile.id }, include: { documents: true } });
    const doc = cf.documents.find((d) => d.name === "contract.pdf")!;
    const res = await fetch(`${gateway.url}/send/api/v1/casefiles/${cf.id}/documents/${doc.id}/file`, { headers: { "X-Auth-Token": token } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(contract)).toBe(true);
  });

  it("lets the job status be polled without a token, only with the right payloadHash", async () => {
    const created = await postCreate(gateway.url, token, validCaseFile({ reference: "polled" }), files());
    const [job] = created.body.jobs;
    const wrong = await pollOnce(gateway.url, job!.uuid, "0".repeat(64));
    expect(wrong.status).toBe(404);
    expect(wrong.body).toMatchObject({ message: "Job not found", statusCode: 404 });
  });
});

import { decryptSecret, keyId } from "@esign/db";
import { TEST_ENCRYPTION_KEY, closeTestDb, getToken, newCustomer, postCreate, testDb, waitForJob } from "../support/api";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import { redisValues } from "../support/redis-values";
import type { ServiceProcess } from "../support/services";
import { startSystem, type System } from "../support/system";

/*
 * Issue 26, item 6: a signer's CPR number and social security number are national ids. They are
 * stored encrypted with ENCRYPTION_KEY (the Signer columns and the creation job's payload, which is
 * kept 14 days), never queued in clear, never in an API answer, an event (what webhooks carry) or a
 * log line. The readers that need them (accessControl, the e-Boks message) open them: the signing
 * flow's comparison is proved in signing-secure.test.ts.
 */

const CPR = "2405791357";
const SSN = "1103827531";
const SSN_CHANGED = "0709654321";
const ADDED_SSN = "3112998642";
const CLEAR = [CPR, SSN, SSN_CHANGED, ADDED_SSN];
/** The form the columns hold: encryptSecret's, naming the current key. */
const ENCRYPTED = new RegExp(`^v2\\.${keyId(TEST_ENCRYPTION_KEY)}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`);

let system: System;
let worker: ServiceProcess | undefined;
let token: string;
let pdfs: { name: string; content: Buffer }[];
let caseFileId: number;
let jobId: string;

/** By default a draft to be sent in an hour: its signers can still be changed and added. */
const payload = (sendAt: number | null = Math.floor(Date.now() / 1000) + 3600) =>
  validCaseFile({
    sendAt,
    signers: [
      { name: "Carl Christensen", channel: "eboks", cpr: CPR, role: "Employee" },
      {
        name: "Alice Andersen",
        email: "alice@example.com",
        role: "Employee",
        socialSecurityNumberPlain: SSN,
        ssnType: "dk:cpr",
        accessControl: true,
        secureSigningMethods: ["mitid.dk"],
      },
    ],
    documents: [
      { title: "Contract", name: "contract.pdf", roles: ["Employee"] },
      { title: "Appendix", name: "appendix.pdf", signable: false },
    ],
  });

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${system.gateway.url}/api/v1/${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const withClear = (texts: string[]) => texts.filter((t) => CLEAR.some((id) => t.includes(id)));

/** The Signer rows of the case file as PostgreSQL holds them (every column, as text). */
async function rawSignerRows(): Promise<{ text: string; cprEnc: string | null; socialSecurityNumberEnc: string | null; name: string }[]> {
  return testDb().$queryRawUnsafe(
    `SELECT row_to_json(s)::text AS text, s."cprEnc", s."socialSecurityNumberEnc", s.name FROM "Signer" s WHERE s."caseFileId" = $1 ORDER BY s.id`,
    caseFileId,
  );
}

beforeAll(async () => {
  // The gateway alone first: the create's job stays queued in Redis for the first test to read.
  system = await startSystem([], {}, { JOB_POLL_LIMIT_PER_MINUTE: "0" });
  token = await getToken(system.gateway.url, await newCustomer({ eboksEnabled: true, secureSigningMethods: ["mitid.dk"] }));
  const [contract, appendix] = await Promise.all([makePdf("Contract"), makePdf("Appendix")]);
  pdfs = [
    { name: "contract.pdf", content: contract },
    { name: "appendix.pdf", content: appendix },
  ];
});

afterAll(async () => {
  await system?.stop();
  await closeTestDb();
});

describe("national ids (CPR, social security number) at rest", () => {
  it("a create queues no national id in clear, and its stored job payload keeps them encrypted", async () => {
    const created = await postCreate(system.gateway.url, token, payload(), pdfs);
    expect(created.status).toBe(200);
    jobId = created.body.jobs[0]!.uuid;

    const queued = await redisValues(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", process.env.QUEUE_PREFIX!);
    expect(queued.some((v) => v.includes(jobId))).toBe(true); // the scan sees the queued job
    expect(withClear(queued)).toEqual([]);

    const row = await testDb().$queryRawUnsafe<{ payload: string }[]>(`SELECT payload::text AS payload FROM "CreationJob" WHERE id = $1::uuid`, jobId);
    expect(withClear([row[0]!.payload])).toEqual([]);
    const stored = JSON.parse(row[0]!.payload) as { signers: Record<string, unknown>[] };
    expect(stored.signers[0]!.cprEnc).toMatch(ENCRYPTED);
    expect(stored.signers[1]!.socialSecurityNumberEnc).toMatch(ENCRYPTED);
    expect(decryptSecret(String(stored.signers[0]!.cprEnc), TEST_ENCRYPTION_KEY)).toBe(CPR);

    // The worker reads them back from the encrypted payload and creates the case file.
    worker = await system.start("casefile-worker");
    const done = await waitForJob(system.gateway.url, jobId, created.body.jobs[0]!.payloadHash);
    expect([done.jobStatus, done.errorMessage]).toEqual(["completed", null]);
    caseFileId = done.result!.data.caseFile.id;
  });

  it("the Signer columns hold them encrypted with ENCRYPTION_KEY, never in clear", async () => {
    const rows = await rawSignerRows();
    expect(rows.map((r) => r.name)).toEqual(["Carl Christensen", "Alice Andersen"]);
    expect(withClear(rows.map((r) => r.text))).toEqual([]);
    expect(rows[0]!.cprEnc).toMatch(ENCRYPTED);
    expect(rows[1]!.socialSecurityNumberEnc).toMatch(ENCRYPTED);
    expect([decryptSecret(rows[0]!.cprEnc!, TEST_ENCRYPTION_KEY), decryptSecret(rows[1]!.socialSecurityNumberEnc!, TEST_ENCRYPTION_KEY)]).toEqual([CPR, SSN]);
  });

  it("a signer changed or added later is stored the same way", async () => {
    const [carl, alice] = await testDb().signer.findMany({ where: { caseFileId }, orderBy: { id: "asc" } });
    const changed = await api("PUT", `casefiles/${caseFileId}/signers/${alice!.id}`, { socialSecurityNumberPlain: SSN_CHANGED, ssnType: "dk:cpr" });
    expect(changed.status).toBe(200);
    // The same number sent back (the SDKs PUT what they hold) is no change.
    const same = await api("PUT", `casefiles/${caseFileId}/signers/${alice!.id}`, { socialSecurityNumberPlain: SSN_CHANGED });
    expect(same.status).toBe(200);
    const added = await api("POST", `casefiles/${caseFileId}/signers`, {
      name: "Dora Dahl",
      role: "Employee",
      socialSecurityNumberPlain: ADDED_SSN,
      ssnType: "dk:cpr",
    });
    expect([added.status, added.status === 201 ? "" : await added.text()]).toEqual([201, ""]);

    const rows = await rawSignerRows();
    expect(withClear(rows.map((r) => r.text))).toEqual([]);
    expect(rows.map((r) => r.socialSecurityNumberEnc && decryptSecret(r.socialSecurityNumberEnc, TEST_ENCRYPTION_KEY))).toEqual([null, SSN_CHANGED, ADDED_SSN]);
    expect(rows[0]!.cprEnc).toBe((await testDb().signer.findUniqueOrThrow({ where: { id: carl!.id } })).cprEnc);
    const log = await testDb().logEntry.findMany({ where: { signerId: alice!.id, event: "edited" } });
    expect(log.map((l) => l.detail)).toEqual([{ fields: ["socialSecurityNumberPlain"] }]);
  });

  it("no API answer, event (what webhooks carry) or log line holds them", async () => {
    const signers = await testDb().signer.findMany({ where: { caseFileId }, orderBy: { id: "asc" } });
    const encrypted = signers.flatMap((s) => [s.cprEnc, s.socialSecurityNumberEnc]).filter((v): v is string => v !== null);
    const answers: string[] = [];
    for (const path of [
      `casefiles/${caseFileId}`,
      `casefiles/${caseFileId}/signers`,
      ...signers.flatMap((s) => [`casefiles/${caseFileId}/signers/${s.id}`, `signingrequests/${s.id}`]),
    ]) {
      const res = await api("GET", path);
      expect([path, res.status]).toEqual([path, 200]);
      answers.push(await res.text());
    }
    // The send API's case file (X-Auth-Token) too.
    const sendApi = await fetch(`${system.gateway.url}/send/api/v1/casefiles/${caseFileId}`, { headers: { "X-Auth-Token": token } });
    expect(sendApi.status).toBe(200);
    answers.push(await sendApi.text());
    // The signer is there, its ssnType too (Penneo's SDKs read socialSecurityNumberPlain as absent: null).
    expect(answers[0]).toContain("Alice Andersen");
    expect(answers[0]).toContain('"ssnType":"dk:cpr"');
    expect(withClear(answers)).toEqual([]);
    expect(answers.filter((a) => encrypted.some((e) => a.includes(e)))).toEqual([]);

    // A case file sent at once: its signers' requests are activated (events, so webhooks).
    const sent = await postCreate(system.gateway.url, token, payload(null), pdfs);
    const done = await waitForJob(system.gateway.url, sent.body.jobs[0]!.uuid, sent.body.jobs[0]!.payloadHash);
    expect([done.jobStatus, done.errorMessage]).toEqual(["completed", null]);
    expect(done.result!.data.caseFile.status).toBe(1);
    // Every event and log entry of this file's database (other files' carry none of these numbers).
    const events = await testDb().event.findMany();
    expect(events.length).toBeGreaterThan(0);
    expect(withClear(events.map((e) => JSON.stringify(e.payload)))).toEqual([]);
    expect(withClear((await testDb().logEntry.findMany()).map((e) => JSON.stringify(e)))).toEqual([]);

    const logs = [system.gateway.logs, worker!.logs];
    expect(logs.every((l) => l.length > 0)).toBe(true);
    expect(withClear(logs)).toEqual([]);
  });
});

import { Redis } from "ioredis";
import { loadConfig } from "@esign/config";
import { createLogger } from "@esign/logger";
import { purgeJobsJob } from "../../services/casefile-worker/src/jobs/purge-jobs.job";
import type { WorkerContext } from "../../services/casefile-worker/src/context";
import { closeTestDb, getToken, newCustomer, pollOnce, postCreate, testDb, type CreateAnswer } from "../support/api";
import { makePdf } from "../support/pdf";
import { validCaseFile } from "../support/payloads";
import type { ServiceProcess } from "../support/services";
import { startSystem, type System } from "../support/system";

/*
 * The job-status endpoint with the gateway's DEFAULT poll limit (20 a minute per job, Penneo's).
 */

type Job = CreateAnswer["jobs"][number];

let system: System;
let gateway: ServiceProcess;
let main: Job;
let old: Job;
let recent: Job;
let token: string;
let redis: Redis;

const DAY = 24 * 3600 * 1000;
const STATUS_URL = () => `${gateway.url}/send/api/v1/queue/public/status`;

async function waitCompletedInDb(ids: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const rows = await testDb().creationJob.findMany({ where: { id: { in: ids } }, select: { status: true } });
    if (rows.length === ids.length && rows.every((r) => r.status === "completed")) return;
    if (rows.some((r) => r.status === "failed")) throw new Error("a job failed");
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("jobs not completed in time");
}

async function postStatus(body: string, contentType = "application/json") {
  const res = await fetch(STATUS_URL(), { method: "POST", headers: { "content-type": contentType }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  expect(process.env.JOB_POLL_LIMIT_PER_MINUTE).toBeUndefined();
  system = await startSystem(["casefile-worker"]);
  redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  gateway = system.gateway;
  const creds = await newCustomer();
  token = await getToken(gateway.url, creds);
  const [contract, appendix] = await Promise.all([makePdf("job-status contract"), makePdf("job-status appendix")]);
  const files = [
    { name: "contract.pdf", content: contract },
    { name: "appendix.pdf", content: appendix },
  ];
  const created = await Promise.all(["main", "old", "recent"].map((reference) => postCreate(gateway.url, token, validCaseFile({ reference }), files)));
  for (const c of created) expect(c.status).toBe(200);
  [main, old, recent] = created.map((c) => c.body.jobs[0]!) as [Job, Job, Job];
  // Completion is watched in the database so that no poll is spent before the tests.
  await waitCompletedInDb([main.uuid, old.uuid, recent.uuid]);
});

afterAll(async () => {
  await system?.stop();
  redis?.disconnect();
  await closeTestDb();
});

describe("job status: answer shape", () => {
  it("answers a completed job with exactly the contract's keys, the result as Penneo's clients read it", async () => {
    const res = await pollOnce(gateway.url, main.uuid, main.payloadHash);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ["uuid", "type", "jobStatus", "result", "payloadHash", "errorMessage", "retries", "maxRetries", "createdAt", "updatedAt"].sort(),
    );
    const row = await testDb().creationJob.findUniqueOrThrow({ where: { id: main.uuid } });
    expect(res.body).toEqual({
      uuid: main.uuid,
      type: "casefile_creation",
      jobStatus: "completed",
      result: { data: { caseFile: { id: expect.any(Number), status: 1 }, signingLinks: expect.any(Array) } },
      payloadHash: main.payloadHash,
      errorMessage: null,
      retries: row.retries,
      maxRetries: row.maxRetries,
      createdAt: main.createdAt,
      updatedAt: row.updatedAt.toISOString(),
    });
    expect(Object.keys(res.body.result!)).toEqual(["data"]);
    expect(Object.keys(res.body.result!.data).sort()).toEqual(["caseFile", "signingLinks"]);
    expect(res.body.result!.data.signingLinks).toHaveLength(2);
    for (const link of res.body.result!.data.signingLinks) {
      expect(Object.keys(link).sort()).toEqual(["name", "role", "signerId", "signingLink"]);
      expect(link).toEqual({
        signerId: expect.any(Number),
        name: expect.any(String),
        role: expect.any(String),
        signingLink: expect.stringMatching(/\/sign\/[\w-]+$/),
      });
    }
    expect(typeof res.body.retries).toBe("number");
    expect(typeof res.body.maxRetries).toBe("number");
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect(new Date(res.body.updatedAt).toISOString()).toBe(res.body.updatedAt);
  });
});

describe("job status: 20 polls a minute per job (Penneo's limit)", () => {
  const counterKeys = () => redis.keys(`${process.env.QUEUE_PREFIX}:rl:job-poll*`);

  it("answers 20 polls in a row (a client polling every 3 s never trips), then 429 with Retry-After and RateLimit headers", async () => {
    // `main` was polled once above: 19 more fit in this minute.
    const remaining: number[] = [];
    for (let i = 0; i < 19; i++) {
      const res = await pollOnce(gateway.url, main.uuid, main.payloadHash);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("20");
      expect(res.headers.get("ratelimit-policy")).toBe("20;w=60");
      remaining.push(Number(res.headers.get("ratelimit-remaining")));
    }
    expect(remaining).toEqual(Array.from({ length: 19 }, (_, i) => 18 - i));
    const limited = await pollOnce(gateway.url, main.uuid, main.payloadHash);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("ratelimit-reset"))).toBe(retryAfter);
    expect(limited.body).toEqual({ error: "too_many_requests", message: expect.stringContaining("20 times a minute"), statusCode: 429 });
  });

  it("counts per job: another job of the same customer is answered meanwhile", async () => {
    const res = await pollOnce(gateway.url, old.uuid, old.payloadHash);
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-remaining")).toBe("19");
  });

  it("answers 200 again once the window has passed (the counter lives in Redis, shared by replicas)", async () => {
    const keys = await counterKeys();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    // Ends the window now instead of waiting up to a minute.
    for (const k of keys) await redis.pexpire(k, 1);
    await new Promise((r) => setTimeout(r, 20));
    const res = await pollOnce(gateway.url, main.uuid, main.payloadHash);
    expect(res.status).toBe(200);
    expect(res.body.jobStatus).toBe("completed");
  });

  it("lets exactly 20 of 25 concurrent polls through (13-day-old job: still visible)", async () => {
    await testDb().creationJob.update({ where: { id: recent.uuid }, data: { createdAt: new Date(Date.now() - 13 * DAY) } });
    const answers = await Promise.all(Array.from({ length: 25 }, () => pollOnce(gateway.url, recent.uuid, recent.payloadHash)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const ok = answers.find((a) => a.status === 200)!;
    expect(ok.body.uuid).toBe(recent.uuid);
    expect(Date.now() - new Date(ok.body.createdAt).getTime()).toBeGreaterThan(13 * DAY - 60_000);
  });

  it("does not count polls of an unknown pair against any job (guessing fills no per-job counters; only the guesser's address is counted)", async () => {
    // The per-address count of unknown pairs (issue 26, item 7) is the one counter guessing may fill.
    const perJob = async () => (await counterKeys()).filter((k) => !k.includes(":rl:job-poll-failures-address:")).sort();
    const before = await perJob();
    for (let i = 0; i < 3; i++) expect((await pollOnce(gateway.url, "3f1c2b1e-8a7d-4f6e-9c5b-1a2b3c4d5e6f", "a".repeat(64))).status).toBe(404);
    expect(await perJob()).toEqual(before);
    expect(await counterKeys()).toContain(`${process.env.QUEUE_PREFIX}:rl:job-poll-failures-address:127.0.0.1`);
  });
});

describe("job status: not found and malformed", () => {
  const NOT_FOUND = { message: "Job not found", statusCode: 404 };

  it("answers an unknown uuid with 404 Job not found", async () => {
    const res = await pollOnce(gateway.url, "3f1c2b1e-8a7d-4f6e-9c5b-1a2b3c4d5e6f", main.payloadHash);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(NOT_FOUND);
  });

  it("answers a wrong payloadHash with the same 404 (the pair is the credential)", async () => {
    const wrong = await pollOnce(gateway.url, old.uuid, "f".repeat(64));
    const unknown = await pollOnce(gateway.url, "3f1c2b1e-8a7d-4f6e-9c5b-1a2b3c4d5e6f", old.payloadHash);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toMatchObject(NOT_FOUND);
    expect(wrong.body).toEqual(unknown.body);
  });

  it.each([
    ["not JSON", "{uuid: nope", "application/json"],
    ["an empty object", "{}", "application/json"],
    ["a missing payloadHash", JSON.stringify({ uuid: "3f1c2b1e-8a7d-4f6e-9c5b-1a2b3c4d5e6f" }), "application/json"],
    ["a uuid that is not a uuid", JSON.stringify({ uuid: "1234", payloadHash: "a".repeat(64) }), "application/json"],
    ["a payloadHash that is not hex", JSON.stringify({ uuid: "3f1c2b1e-8a7d-4f6e-9c5b-1a2b3c4d5e6f", payloadHash: "z".repeat(64) }), "application/json"],
    ["a JSON array", "[]", "application/json"],
    ["numbers instead of strings", JSON.stringify({ uuid: 1, payloadHash: 2 }), "application/json"],
  ])("answers %s with 400", async (_name, body, type) => {
    const res = await postStatus(body, type);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.any(String), message: expect.any(String), statusCode: 400 });
  });
});

describe("job status: retention and purge", () => {
  it("answers 404 for a job created 15 days ago even though its row exists; the purge deletes it (and old refresh tokens) and keeps its case file", async () => {
    await testDb().creationJob.update({ where: { id: old.uuid }, data: { createdAt: new Date(Date.now() - 15 * DAY) } });
    const oldCaseFile = await testDb().caseFile.findUniqueOrThrow({ where: { creationJobId: old.uuid } });

    const res = await pollOnce(gateway.url, old.uuid, old.payloadHash);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: "Job not found", statusCode: 404 });
    expect(await testDb().creationJob.count({ where: { id: old.uuid } })).toBe(1);

    const config = loadConfig(process.env);
    const logger = createLogger({ service: "job-status-test", level: "warn" });
    // purgeJobsJob uses config, logger and db only; the producer and storage are not needed here.
    const ctx = { config, logger, db: testDb() } satisfies Pick<WorkerContext, "config" | "logger" | "db">;
    const client = await testDb().apiClient.findFirstOrThrow({
      where: { customerId: (await testDb().creationJob.findUniqueOrThrow({ where: { id: old.uuid } })).customerId },
    });
    const refresh = (id: string, hoursAgo: number) =>
      testDb().refreshToken.create({
        data: { id, familyId: id, apiClientId: client.id, tokenHash: id, expiresAt: new Date(Date.now() - hoursAgo * 3600 * 1000) },
      });
    await refresh("00000000-0000-4000-8000-00000000000a", 25);
    await refresh("00000000-0000-4000-8000-00000000000b", 23);
    await purgeJobsJob(ctx as WorkerContext);
    // Refresh tokens go a day after they expired (a late reuse still finds its row until then).
    expect((await testDb().refreshToken.findMany({ where: { apiClientId: client.id } })).map((r) => r.id)).toEqual(["00000000-0000-4000-8000-00000000000b"]);

    expect(await testDb().creationJob.count({ where: { id: old.uuid } })).toBe(0);
    expect(await testDb().creationJob.count({ where: { id: { in: [recent.uuid, main.uuid] } } })).toBe(2);
    const kept = await testDb().caseFile.findUniqueOrThrow({ where: { id: oldCaseFile.id } });
    expect(kept.creationJobId).toBeNull();
    expect(kept.reference).toBe("old");
    const recentCaseFile = await testDb().caseFile.findUniqueOrThrow({ where: { creationJobId: recent.uuid } });
    expect(recentCaseFile.reference).toBe("recent");

    // Only the job record is gone: the case file stays readable through the API.
    const after = await pollOnce(gateway.url, old.uuid, old.payloadHash);
    expect(after.status).toBe(404);
    const read = await fetch(`${gateway.url}/send/api/v1/casefiles/${oldCaseFile.id}`, { headers: { "X-Auth-Token": token } });
    expect(read.status).toBe(200);
  });
});

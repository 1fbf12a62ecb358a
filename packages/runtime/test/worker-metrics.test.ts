import { randomUUID } from "node:crypto";
import { Registry } from "prom-client";
import { createLogger } from "@esign/logger";
import { DelayedError, Producer, createRedis, startWorker, type Job } from "@esign/queue";
import { queueMetrics } from "../src";
import { parsePrometheus, valueOf } from "../../../test/support/prometheus";

/*
 * packages/queue's startWorker with this package's queueMetrics, on real Redis: what every worker
 * service gets. Log lines are read from the logger's own output (JSON), as a log shipper would.
 */

const MESSAGE = Symbol.for("message");

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("startWorker with queue metrics", () => {
  const prefix = `${process.env.QUEUE_PREFIX ?? "esign-test-local"}:runtime-worker`;
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const registry = new Registry();
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ service: "worker-test", format: "json", level: "debug" });
  for (const t of logger.transports) t.silent = true;
  logger.on("data", (info: Record<string | symbol, unknown>) => lines.push(JSON.parse(String(info[MESSAGE])) as Record<string, unknown>));

  const connection = createRedis(redisUrl, "worker");
  const producerConnection = createRedis(redisUrl, "worker");
  const producer = new Producer(producerConnection, prefix);
  const metrics = queueMetrics({ registry, depthTtlMs: 0, logger });
  const creationJobId = randomUUID();
  let deferred = false;

  const worker = startWorker(
    "casefile",
    {
      create: async () => {
        logger.info("creating the case file");
        logger.child({ caseFileId: 42 }).info("case file created");
      },
      send: async () => {
        throw new Error("smtp://mailer:hunter2@mail.example.com refused");
      },
      advance: async (_data, job: Job) => {
        if (!deferred) {
          deferred = true;
          await job.moveToDelayed(Date.now() + 50, job.token);
          throw new DelayedError("later");
        }
      },
      "purge-jobs": async () => undefined,
      "requeue-pending": async () => undefined,
      finalize: async () => undefined,
      expire: async () => undefined,
      "expire-signer": async () => undefined,
      "activate-signer": async () => undefined,
    },
    { connection, prefix, logger, metrics, concurrency: 2 },
  );

  afterAll(async () => {
    await worker.close();
    await producer.close();
    connection.disconnect();
    producerConnection.disconnect();
  });

  const scrapeNow = async () => parsePrometheus(await registry.metrics());

  it("reports completed, failed and deferred runs, waits and durations by queue and job name", async () => {
    await producer.enqueue("casefile", "create", { creationJobId }, { jobId: creationJobId });
    await producer.enqueue("casefile", "send", { caseFileId: 7 }, { attempts: 1 });
    await producer.enqueue("casefile", "advance", { caseFileId: 8 });
    const s = await until(async () => {
      const now = await scrapeNow();
      const done =
        valueOf(now, "esign_queue_jobs_completed_total", { queue: "casefile", job_name: "create" }) === 1 &&
        valueOf(now, "esign_queue_jobs_failed_total", { queue: "casefile", job_name: "send" }) === 1 &&
        valueOf(now, "esign_queue_jobs_completed_total", { queue: "casefile", job_name: "advance" }) === 1;
      return done && now;
    });
    const advance = { queue: "casefile", job_name: "advance" };
    expect(valueOf(s, "esign_queue_jobs_failed_total", advance)).toBe(0);
    // Two runs of advance (deferred, then done): one duration (the completed run), one wait (the first run).
    expect(valueOf(s, "esign_queue_job_duration_seconds_count", advance)).toBe(1);
    expect(valueOf(s, "esign_queue_job_wait_seconds_count", advance)).toBe(1);
    expect(valueOf(s, "esign_queue_job_wait_seconds_count", { queue: "casefile", job_name: "create" })).toBe(1);
    expect(valueOf(s, "esign_queue_job_duration_seconds_count", { queue: "casefile", job_name: "send" })).toBe(1);
  });

  it("reads the queue's depth on scrape", async () => {
    const s = await scrapeNow();
    expect(valueOf(s, "esign_queue_depth", { queue: "casefile", state: "failed" })).toBe(1);
    for (const state of ["waiting", "delayed", "active"]) expect(s.some((x) => x.name === "esign_queue_depth" && x.labels.state === state)).toBe(true);
  });

  it("puts queue, jobId, jobName and the data's ids on every line a job logs, through any logger, and on no other line", async () => {
    const inJob = lines.filter((l) => l.jobId === creationJobId);
    expect(inJob.map((l) => l.message)).toEqual(expect.arrayContaining(["creating the case file", "case file created"]));
    for (const l of inJob) expect(l).toMatchObject({ queue: "casefile", jobName: "create", creationJobId, service: "worker-test" });
    expect(inJob.find((l) => l.message === "case file created")).toMatchObject({ caseFileId: 42 });

    logger.info("outside any job");
    expect(lines.find((l) => l.message === "outside any job")).not.toHaveProperty("jobId");

    const failed = lines.find((l) => l.message === "job failed" && l.jobName === "send");
    expect(failed).toMatchObject({ queue: "casefile" });
    // The error text is logged, its credential is not.
    expect(JSON.stringify(failed)).not.toContain("hunter2");
  });

  it("stops reading the depth once the worker is closed", async () => {
    await worker.close();
    const s = await scrapeNow();
    expect(s.filter((x) => x.name === "esign_queue_depth")).toHaveLength(0);
  });
});

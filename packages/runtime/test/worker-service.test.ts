import { randomUUID } from "node:crypto";
import { loadConfig } from "@esign/config";
import { ping, run, sqlPool } from "@esign/db";
import { createLogger } from "@esign/logger";
import { Producer, createRedis, startWorker } from "@esign/queue";
import { Redis } from "ioredis";
import { startWorkerService, type WorkerBoot } from "../src";
import { eventually } from "../../../test/support/eventually";
import { parsePrometheus } from "../../../test/support/prometheus";
import { startRedisServer } from "../../../test/support/redis-server";

/*
 * The boot every worker service runs (runWorkerService), in this process against real PostgreSQL
 * and Redis: what it opens, what /readyz checks, and the shutdown order that loses no work - a job
 * in flight when close() is called finishes with the database and its producer still open.
 */

const logger = createLogger({ service: "worker-service-test", level: "error" });
const PREFIX = `${process.env.QUEUE_PREFIX ?? "esign-test-local"}:worker-service`;
const configWith = (env: Record<string, string>) => loadConfig({ ...process.env, HEALTH_PORT: "0", QUEUE_PREFIX: PREFIX, ...env });

/** A promise and its resolver, to hold or observe a step without any timing. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("startWorkerService", () => {
  it("opens the database, Redis and a producer, serves /readyz, and on close lets the job in flight finish before anything it uses closes", async () => {
    const steps: string[] = [];
    const jobStarted = signal();
    const releaseJob = signal();
    const feederStopped = signal();
    const followUpId = randomUUID();
    let boot!: WorkerBoot;

    const service = await startWorkerService({ config: configWith({}), logger }, { defaultHealthPort: 1 }, async (b) => {
      boot = b;
      const worker = startWorker(
        "events",
        {
          dispatch: async () => {
            jobStarted.resolve();
            await releaseJob.promise;
            // What a handler does last: a query and a follow-up enqueue. Both must still work.
            await run(b.db, ping, {});
            await b.producer.enqueue("notifications", "completed", { caseFileId: 1 }, { jobId: followUpId });
            steps.push("job finished");
          },
        },
        b.workerOptions,
      );
      const feeder = {
        async stop() {
          steps.push("feeder stopped");
          feederStopped.resolve();
        },
      };
      // `undefined`: a part this replica did not start (a relay OUTBOX_RELAY_SERVICES leaves out).
      return { feeders: [feeder, undefined], workers: [worker], resources: [{ close: () => steps.push("resource closed") }] };
    });
    const health = `http://127.0.0.1:${service.healthPort}`;

    // Readiness is what a probe polls: the service must become ready with both dependencies named.
    // Not the first probe alone: a process just booted, on a machine where every test worker starts
    // at once, can pass the checks' 2 s time-out once (a clean-clone CI run read one 503 there).
    const missed: string[] = [];
    const ready = await eventually(async () => {
      const res = await fetch(`${health}/readyz`);
      const body: unknown = await res.json();
      if (res.status !== 200) missed.push(`${res.status} ${JSON.stringify(body)}`);
      return res.status === 200 ? { body } : undefined;
    }, 20_000).catch(() => {
      throw new Error(`/readyz never answered 200: ${missed.join("; ")}`);
    });
    if (missed.length > 0) process.stdout.write(`worker-service: /readyz was not ready at first: ${missed.join("; ")}\n`);
    expect(ready.body).toEqual({ status: "ready", checks: { postgres: "ok", redis: "ok" } });

    const connection = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "worker");
    const producer = new Producer(connection, PREFIX);
    try {
      const jobId = await producer.enqueue("events", "dispatch", { eventIds: [randomUUID()] });
      await jobStarted.promise;

      const closing = service.close();
      await feederStopped.promise;
      // Feeders stopped, the job still held: nothing after the workers has been closed.
      expect(steps).toEqual(["feeder stopped"]);
      releaseJob.resolve();
      await closing;

      expect(steps).toEqual(["feeder stopped", "job finished", "resource closed"]);
      expect(await producer.queue("events").getJobState(jobId)).toBe("completed");
      expect((await producer.queue("notifications").getJob(followUpId))?.data).toEqual({ caseFileId: 1 });
      // Then everything shared is closed: health server, Redis connection, database pool.
      await expect(fetch(`${health}/healthz`)).rejects.toThrow();
      expect(boot.redis.status).toBe("end");
      expect(sqlPool(boot.db).ended).toBe(true);
    } finally {
      await producer.queue("events").obliterate({ force: true });
      await producer.queue("notifications").obliterate({ force: true });
      await producer.close();
      connection.disconnect();
    }
  });

  it("exposes the typed-SQL figures of its database on /metrics", async () => {
    let db!: WorkerBoot["db"];
    const service = await startWorkerService({ config: configWith({}), logger }, { defaultHealthPort: 1 }, async (b) => {
      db = b.db;
      return { workers: [] };
    });
    try {
      await run(db, ping, {});
      const samples = parsePrometheus(await (await fetch(`http://127.0.0.1:${service.healthPort}/metrics`)).text());
      expect(samples.find((s) => s.name === "esign_typed_sql_compiles" && s.labels.statement === "ping")?.value).toBeGreaterThanOrEqual(1);
    } finally {
      await service.close();
    }
  });

  it("refuses a Redis that evicts keys (BullMQ would lose jobs) before the service's own parts start", async () => {
    const redis = await startRedisServer();
    const admin = new Redis(redis.url);
    try {
      await admin.config("SET", "maxmemory-policy", "allkeys-lru");
      let started = false;
      const boot = startWorkerService({ config: configWith({ REDIS_URL: redis.url }), logger }, { defaultHealthPort: 1 }, async () => {
        started = true;
        return { workers: [] };
      });
      await expect(boot).rejects.toThrow(/maxmemory-policy is "allkeys-lru".*noeviction/);
      expect(started).toBe(false);
    } finally {
      admin.disconnect();
      await redis.stop();
    }
  });
});

import { randomUUID } from "node:crypto";
import { createPrisma, sqlPool } from "@esign/db";
import { createLogger } from "@esign/logger";
import { Producer, createRedis, deferDelayMs, startWorker } from "../src";
import { freePort } from "../../../test/support/ports";

/*
 * A job whose PostgreSQL is away is put back without using an attempt: an outage longer than its
 * retry budget must not fail it. The error is pg's own, from a connect to a port nobody listens on.
 */

const logger = createLogger({ service: "deferral-test", level: "error" });

async function refusedConnect(): Promise<Error> {
  const db = createPrisma(`postgresql://postgres@127.0.0.1:${await freePort()}/x`, 1);
  try {
    await sqlPool(db).query("SELECT 1");
  } catch (err) {
    return err as Error;
  } finally {
    await db.$disconnect();
  }
  throw new Error("expected the connect to fail");
}

describe("startWorker when a dependency is away", () => {
  const prefix = `${process.env.QUEUE_PREFIX ?? "esign-test-local"}:deferral`;
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

  it("puts the job back without using an attempt, and runs it again", async () => {
    const refused = await refusedConnect();
    const connection = createRedis(redisUrl, "worker");
    const producerConnection = createRedis(redisUrl, "worker");
    const producer = new Producer(producerConnection, prefix);
    const runs: { attemptsMade: number; attemptsStarted: number }[] = [];
    const worker = startWorker(
      "webhooks",
      {
        deliver: async (_data, job) => {
          runs.push({ attemptsMade: job.attemptsMade, attemptsStarted: job.attemptsStarted });
          // Away for three runs: more than the job's one attempt would allow.
          if (runs.length <= 3) throw refused;
        },
        recover: async () => {},
      },
      { connection, prefix, logger },
    );
    const jobId = await producer.enqueue("webhooks", "deliver", { deliveryId: randomUUID(), attempt: 1 });
    const job = await new Promise<string>((resolve, reject) => {
      worker.on("completed", (j) => j.id === jobId && resolve(j.id));
      worker.on("failed", (j, err) => j?.id === jobId && reject(err));
    });
    expect(job).toBe(jobId);
    expect(runs.map((r) => r.attemptsMade)).toEqual([0, 0, 0, 0]);
    expect(runs.map((r) => r.attemptsStarted)).toEqual([1, 2, 3, 4]);

    await worker.close();
    await producer.close();
    producerConnection.disconnect();
    connection.disconnect();
  });

  it("waits 250 ms after the first run, doubling to 2 s", () => {
    const after = (started: number, made = 0) => deferDelayMs({ attemptsStarted: started, attemptsMade: made });
    expect([1, 2, 3, 4, 5, 40].map((n) => after(n))).toEqual([250, 500, 1000, 2000, 2000, 2000]);
    // A failed attempt in between is not a deferral.
    expect(after(3, 2)).toBe(250);
  });
});

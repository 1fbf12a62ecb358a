import { randomUUID } from "node:crypto";
import { createLogger } from "@esign/logger";
import { EnqueueBacklog, Producer, createRedis, type RecoveryMetrics, type RecoverySample } from "../src";
import { startRedisServer, type RedisServer } from "../../../test/support/redis-server";

/*
 * The gateway's path for a create whose Redis is away: kept in memory, enqueued as soon as Redis
 * answers again, once per job id. On a redis-server of this file's own, restarted for real.
 */

const logger = createLogger({ service: "backlog-test", level: "error" });

async function until(probe: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("EnqueueBacklog", () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it("keeps enqueues while Redis is away and makes them once it answers, each job once", async () => {
    // What the backlog reports through its RecoveryMetrics hook (packages/runtime turns it into
    // Prometheus metrics and tests that side): kept as it arrives.
    const recoveries: RecoverySample[] = [];
    const sizes: number[] = [];
    const metrics: RecoveryMetrics = { recovered: (s) => recoveries.push(s), backlogSize: (_, size) => sizes.push(size) };
    const connection = createRedis(redis.url, "producer");
    connection.on("error", () => undefined);
    const producer = new Producer(connection, "backlog-test");
    const backlog = new EnqueueBacklog({ producer, connection, logger, name: "test_enqueues", metrics });
    const queue = producer.queue("casefile");
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const enqueue = (id: string) => backlog.enqueue("casefile", "create", { creationJobId: id }, { jobId: id });

    expect(await enqueue(ids[0]!)).toBe("enqueued");
    await redis.shutdown();
    expect(await Promise.all(ids.slice(1).map(enqueue))).toEqual(["deferred", "deferred", "deferred"]);
    // The same job again (a retried request, say) is kept once.
    expect(await enqueue(ids[1]!)).toBe("deferred");
    expect(backlog.size).toBe(3);

    await redis.restart();
    await until(() => backlog.size === 0);
    const jobs = await Promise.all(ids.map((id) => queue.getJob(id)));
    expect(jobs.map((j) => j?.data)).toEqual(ids.map((creationJobId) => ({ creationJobId })));
    expect(await queue.count()).toBe(4);

    // One recovery, of the three kept jobs, and the backlog reported empty last.
    expect(recoveries).toEqual([{ dependency: "redis", backlog: "test_enqueues", seconds: expect.any(Number), requeued: 3 }]);
    expect(sizes.at(-1)).toBe(0);

    await backlog.close();
    await producer.close();
    connection.disconnect();
  });
});

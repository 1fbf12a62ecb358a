import { Queue, type JobsOptions } from "bullmq";
import type { RedisConnection } from "./redis";
import { jobCatalog, type JobData, type JobNames, type QueueName } from "@esign/schema";

/** Type-checked enqueueing against the job catalog, one BullMQ Queue per queue name. */
export class Producer {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    private readonly connection: RedisConnection,
    private readonly prefix: string,
  ) {}

  queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      // A Queue re-emits its connection's errors (every failed reconnect attempt while Redis is away)
      // and, with no listener, BullMQ prints each one's stack to stderr. The connection's owner logs
      // them (throttled); the Queue's own operations still reject to their callers.
      q.on("error", () => undefined);
      this.queues.set(name, q);
    }
    return q;
  }

  async enqueue<Q extends QueueName, N extends JobNames<Q>>(queue: Q, name: N, data: JobData<Q, N>, opts: JobsOptions = {}): Promise<string> {
    const spec = (jobCatalog[queue] as Record<string, { attempts: number; backoffMs?: number }>)[name];
    if (!spec) throw new Error(`job ${queue}/${name} is not in the catalog`);
    const job = await this.queue(queue).add(name, data, {
      attempts: spec.attempts,
      backoff: spec.backoffMs ? { type: "exponential", delay: spec.backoffMs } : undefined,
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
      ...opts,
    });
    return job.id ?? "";
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}

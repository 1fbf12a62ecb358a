import { Job, Queue, type JobsOptions } from "bullmq";
import type { RedisConnection } from "./redis";
import { jobCatalog, type JobData, type JobNames, type QueueName } from "@esign/schema";

/** One job of a batch for `enqueueAll`: a queue of the catalog, a job name and its data, its options. */
export interface JobRequest {
  queue: QueueName;
  name: string;
  data: unknown;
  opts?: JobsOptions;
}

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

  /** The catalog's attempts and back-off for a job, and how long its record stays; `opts` override them. */
  private optionsOf(queue: QueueName, name: string, opts: JobsOptions): JobsOptions {
    const spec = (jobCatalog[queue] as Record<string, { attempts: number; backoffMs?: number }>)[name];
    if (!spec) throw new Error(`job ${queue}/${name} is not in the catalog`);
    return {
      attempts: spec.attempts,
      backoff: spec.backoffMs ? { type: "exponential", delay: spec.backoffMs } : undefined,
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
      ...opts,
    };
  }

  async enqueue<Q extends QueueName, N extends JobNames<Q>>(queue: Q, name: N, data: JobData<Q, N>, opts: JobsOptions = {}): Promise<string> {
    const job = await this.queue(queue).add(name, data, this.optionsOf(queue, name, opts));
    return job.id ?? "";
  }

  /**
   * Adds several jobs, of any queues, in one pipeline: one socket write and one read of the replies
   * instead of one of each per job (a write to a local socket cost tens of microseconds of CPU on
   * the bench machine, bench/README.md round 15). Each job is added as `enqueue` adds it (the
   * same script, so a job id Redis has is still ignored); resolves with the jobs' ids in order and
   * rejects if any add failed. The queues share one connection; on Redis Cluster, QUEUE_PREFIX's
   * hash tag puts every queue's keys in one slot (config), so the pipeline goes to one node. The
   * data is the caller's to check against the catalog: the consuming worker validates it either way.
   */
  async enqueueAll(jobs: readonly JobRequest[]): Promise<string[]> {
    if (jobs.length === 0) return [];
    const queues = jobs.map((j) => this.queue(j.queue));
    // Every Queue's client is this producer's one connection; awaiting each makes sure its scripts are loaded.
    const clients = await Promise.all([...new Set(queues)].map((q) => q.client));
    const pipeline = clients[0]!.pipeline();
    jobs.forEach((j, i) => {
      const opts = this.optionsOf(j.queue, j.name, j.opts ?? {});
      // Queues the add on the pipeline at once; its own promise only echoes the pipeline (BullMQ's
      // addBulk does the same), the ids come from exec's replies.
      void new Job(queues[i]!, j.name, j.data, opts, opts.jobId).addJob(pipeline);
    });
    const replies = (await pipeline.exec()) ?? [];
    if (replies.length !== jobs.length) throw new Error(`enqueueAll: ${replies.length} replies for ${jobs.length} jobs`);
    return replies.map(([err, id], i) => {
      if (err) throw err;
      if (typeof id === "number" && id < 0) throw new Error(`enqueueAll: Redis refused job ${jobs[i]!.queue}/${jobs[i]!.name} (code ${id})`);
      return String(id);
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}

import type { JobsOptions } from "bullmq";
import type { RedisConnection } from "./redis";
import { isDependencyUnavailable } from "@esign/errors";
import type { Logger } from "@esign/logger";
import type { JobData, JobNames, QueueName } from "@esign/schema";
import type { Producer } from "./producer";
import { onRedisReconnect } from "./redis-reconnect";
import type { RecoveryMetrics } from "./recovery-metrics";

export interface EnqueueBacklogOptions {
  /** A producer on a fail-fast connection: an enqueue while Redis is away fails at once. */
  producer: Producer;
  /** The producer's connection: when it is ready again, the backlog is enqueued at once. */
  connection: RedisConnection;
  logger: Logger;
  /** The backlog's name in logs and metrics, e.g. `create_enqueues`. */
  name: string;
  metrics?: RecoveryMetrics;
  /** Most items kept (default 10 000); past that an item is left to the sweepers. */
  maxItems?: number;
}

/** Job options with the deterministic id that makes a retried enqueue land once. */
export type BacklogJobOptions = JobsOptions & { jobId: string };

interface Item {
  queue: QueueName;
  name: string;
  data: object;
  opts: BacklogJobOptions;
}

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 2000;
const FLUSH_CHUNK = 100;
const DEFAULT_MAX_ITEMS = 10_000;

/**
 * Enqueues whose Redis was away, kept in memory and enqueued again as soon as Redis answers: on the
 * connection's `ready`, and on a timer (250 ms doubling to 2 s) while anything is kept, in case a
 * reconnect goes unnoticed. Only for work PostgreSQL already holds (the caller committed it first):
 * this is the prompt path, the sweepers that read PostgreSQL stay the safety net behind it (a process
 * that dies with a backlog, a backlog that overflowed). Job ids must be deterministic, so an item
 * that a sweeper enqueued in the meantime is not doubled.
 */
export class EnqueueBacklog {
  private readonly items = new Map<string, Item>();
  private readonly maxItems: number;
  private readonly stopWatching: () => void;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = RETRY_MIN_MS;
  private flushing: Promise<void> | undefined;
  private flushAgain = false;
  /** When Redis answered again, while the backlog it held up is not empty yet. */
  private recoveringSince: number | undefined;
  private requeuedSinceReconnect = 0;
  private overflowWarned = false;

  constructor(private readonly opts: EnqueueBacklogOptions) {
    this.maxItems = opts.maxItems ?? DEFAULT_MAX_ITEMS;
    this.stopWatching = onRedisReconnect(opts.connection, (outageMs) => this.reconnected(outageMs));
  }

  get size(): number {
    return this.items.size;
  }

  /**
   * Enqueues now, or keeps the job to enqueue it once Redis answers. `deferred` is not a failure:
   * the work is in PostgreSQL and will be enqueued.
   */
  async enqueue<Q extends QueueName, N extends JobNames<Q>>(queue: Q, name: N, data: JobData<Q, N>, opts: BacklogJobOptions): Promise<"enqueued" | "deferred"> {
    try {
      await this.opts.producer.enqueue(queue, name, data, opts);
      return "enqueued";
    } catch (err) {
      this.keep({ queue, name, data: data as object, opts }, err);
      return "deferred";
    }
  }

  /** Tries every kept item now; one flush at a time, a request during one runs another after it. */
  flush(): Promise<void> {
    if (this.flushing) {
      this.flushAgain = true;
      return this.flushing;
    }
    this.flushing = this.flushOnce().finally(() => {
      this.flushing = undefined;
      if (this.flushAgain) {
        this.flushAgain = false;
        void this.flush();
      }
    });
    return this.flushing;
  }

  /** Stops watching; one last try for what is kept, and what is still kept is left to the sweepers. */
  async close(): Promise<void> {
    this.stopWatching();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.items.size > 0) await this.flush();
    clearTimeout(this.retryTimer);
    if (this.items.size > 0) this.opts.logger.warn("enqueues left to the sweepers at shutdown", { backlog: this.opts.name, count: this.items.size });
  }

  private keep(item: Item, err: unknown): void {
    const key = `${item.queue}/${item.opts.jobId}`;
    if (!this.items.has(key) && this.items.size >= this.maxItems) {
      if (!this.overflowWarned)
        this.opts.logger.warn("enqueue backlog full; further items are left to the sweepers", { backlog: this.opts.name, maxItems: this.maxItems });
      this.overflowWarned = true;
      return;
    }
    this.items.set(key, item);
    this.opts.metrics?.backlogSize(this.opts.name, this.items.size);
    this.opts.logger.debug("enqueue kept for when Redis answers", { backlog: this.opts.name, jobId: item.opts.jobId, error: (err as Error).message });
    this.scheduleRetry();
  }

  private reconnected(outageMs: number): void {
    this.recoveringSince = Date.now();
    this.requeuedSinceReconnect = 0;
    this.retryDelayMs = RETRY_MIN_MS;
    this.opts.logger.info("Redis answers again; enqueueing the backlog", { backlog: this.opts.name, count: this.items.size, outageMs });
    void this.flush();
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.items.size === 0) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.flush();
    }, this.retryDelayMs);
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, RETRY_MAX_MS);
  }

  private async flushOnce(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const pending = [...this.items];
    let redisAway = false;
    for (let i = 0; i < pending.length && !redisAway; i += FLUSH_CHUNK) {
      await Promise.all(
        pending.slice(i, i + FLUSH_CHUNK).map(async ([key, item]) => {
          try {
            await this.enqueueItem(item);
            this.items.delete(key);
            this.requeuedSinceReconnect += 1;
          } catch (err) {
            if (isDependencyUnavailable(err)) {
              redisAway = true;
              return;
            }
            // Not Redis being away: retrying from memory will not help; the sweepers will see the row.
            this.items.delete(key);
            this.opts.logger.error("kept enqueue failed; left to the sweepers", { backlog: this.opts.name, jobId: item.opts.jobId, err });
          }
        }),
      );
    }
    this.opts.metrics?.backlogSize(this.opts.name, this.items.size);
    if (this.items.size > 0) return this.scheduleRetry();
    this.overflowWarned = false;
    this.retryDelayMs = RETRY_MIN_MS;
    if (this.recoveringSince !== undefined) {
      const seconds = (Date.now() - this.recoveringSince) / 1000;
      const requeued = this.requeuedSinceReconnect;
      this.recoveringSince = undefined;
      this.opts.metrics?.recovered({ dependency: "redis", backlog: this.opts.name, seconds, requeued });
      this.opts.logger.info("enqueue backlog empty again", { backlog: this.opts.name, requeued, recoverySeconds: seconds });
    }
  }

  /**
   * Items keep their queue and name as plain strings; the catalog checked them when they were kept,
   * so the call is widened here (as the outbox relay does for its event routes).
   */
  private enqueueItem(item: Item): Promise<string> {
    const enqueue = this.opts.producer.enqueue.bind(this.opts.producer) as (queue: QueueName, name: string, data: object, opts: JobsOptions) => Promise<string>;
    return enqueue(item.queue, item.name, item.data, item.opts);
  }
}

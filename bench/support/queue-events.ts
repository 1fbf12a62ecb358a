import type { QueueEvents as BullQueueEvents, QueueEventsOptions } from "bullmq";
import { requireFrom } from "./workspace-require";

const { QueueEvents } = requireFrom<{ QueueEvents: new (name: string, opts: QueueEventsOptions) => BullQueueEvents }>("packages/queue", "bullmq");

/**
 * Records when each job of a queue reports `completed` (BullMQ's event stream, read with a
 * blocking XREAD). The time is taken when the event reaches the bench: an upper bound, so it can
 * only make the system look slower, never faster.
 */
export class CompletionWatch {
  readonly completedAt = new Map<string, number>();
  readonly failed = new Map<string, string>();
  private readonly waiters = new Map<string, () => void>();

  private constructor(private readonly events: BullQueueEvents) {
    events.on("completed", ({ jobId }) => {
      this.completedAt.set(jobId, performance.timeOrigin + performance.now());
      this.waiters.get(jobId)?.();
    });
    events.on("failed", ({ jobId, failedReason }) => this.failed.set(jobId, failedReason));
  }

  static async start(redisUrl: string, prefix: string, queue: string): Promise<CompletionWatch> {
    const u = new URL(redisUrl);
    const events = new QueueEvents(queue, {
      connection: { host: u.hostname, port: Number(u.port || 6379), maxRetriesPerRequest: null },
      prefix,
      // Only events from now on.
      lastEventId: "$",
    });
    await events.waitUntilReady();
    return new CompletionWatch(events);
  }

  /** Resolves once every id has completed (or failed), or after `timeoutMs`. */
  async waitAll(ids: readonly string[], timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const missing = ids.filter((id) => !this.completedAt.has(id) && !this.failed.has(id));
      if (missing.length === 0 || Date.now() > deadline) return ids.length - missing.length;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  close(): Promise<void> {
    return this.events.close();
  }
}

import { OUTBOX_CHANNEL, withDatabase, type Db } from "@esign/db";
import type { Logger } from "@esign/logger";
import type { Producer } from "@esign/queue";
import { drainOutboxBatch, hasUnrelayedEvents, RELAY_BATCH_SIZE } from "./drain-outbox";

export interface OutboxRelayOptions {
  db: Db;
  databaseUrl: string;
  /** A producer on a fail-fast Redis connection: while Redis is away a drain must fail, not hang. */
  producer: Producer;
  logger: Logger;
  pollIntervalMs: number;
}

const LISTEN_RETRY_MIN_MS = 500;
const LISTEN_RETRY_MAX_MS = 30_000;
// A LISTEN connection that died silently (no RST) would never say so; a cheap query notices.
const LISTEN_HEARTBEAT_MS = 30_000;
// While Redis or PostgreSQL is away every poll fails; log the first failure and then only now and then.
const FAILURE_LOG_EVERY = 30;

/**
 * Publishes outbox events to the events queue. PostgreSQL's NOTIFY (sent by insertEvent at commit)
 * wakes it at once; a timer drains every pollIntervalMs as well, so a missed notification, a broken
 * listener or a failed drain costs latency, never an event. Several replicas may run: claims skip
 * rows locked by another replica.
 */
export class OutboxRelay {
  private stopped = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private drainAgain = false;
  /** Whether the drain asked for next was requested by something that knows of new events. */
  private drainAgainWoken = false;
  private consecutiveFailures = 0;
  private listening: Promise<void> | undefined;
  private stopListening: (() => void) | undefined;
  private wakeRetry: (() => void) | undefined;

  constructor(private readonly opts: OutboxRelayOptions) {}

  start(): void {
    this.listening = this.listenLoop();
    this.pollTimer = setInterval(() => this.trigger("poll"), this.opts.pollIntervalMs);
    this.trigger();
  }

  /** Stops listening and polling, and waits for a drain in progress to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    this.stopListening?.();
    this.wakeRetry?.();
    await this.listening;
    await this.draining;
  }

  /**
   * Requests a drain; one runs at a time, and a request during a drain runs another right after.
   * A timer poll ("poll") first asks whether anything is unrelayed (one statement) before opening a
   * claiming transaction: the poll is the safety net, and an idle relay mostly finds nothing.
   */
  trigger(reason: "wake" | "poll" = "wake"): void {
    if (this.stopped) return;
    if (this.draining) {
      this.drainAgain = true;
      if (reason === "wake") this.drainAgainWoken = true;
      return;
    }
    this.draining = this.drainUntilEmpty(reason === "poll").finally(() => {
      this.draining = undefined;
      if (this.drainAgain) {
        const woken = this.drainAgainWoken;
        this.drainAgain = false;
        this.drainAgainWoken = false;
        this.trigger(woken ? "wake" : "poll");
      }
    });
  }

  private async drainUntilEmpty(probeFirst = false): Promise<void> {
    try {
      if (probeFirst && !(await hasUnrelayedEvents(this.opts.db))) {
        if (this.consecutiveFailures > 0) this.opts.logger.info("outbox relay recovered", { failedDrains: this.consecutiveFailures });
        this.consecutiveFailures = 0;
        return;
      }
      let relayed: number;
      do {
        relayed = await drainOutboxBatch(this.opts.db, this.opts.producer, RELAY_BATCH_SIZE);
        if (relayed > 0) this.opts.logger.debug("outbox events relayed", { count: relayed });
      } while (relayed === RELAY_BATCH_SIZE && !this.stopped);
      if (this.consecutiveFailures > 0) this.opts.logger.info("outbox relay recovered", { failedDrains: this.consecutiveFailures });
      this.consecutiveFailures = 0;
    } catch (err) {
      if (this.consecutiveFailures % FAILURE_LOG_EVERY === 0) {
        this.opts.logger.warn("outbox drain failed; retried on the next poll", { err, failedDrains: this.consecutiveFailures + 1 });
      }
      this.consecutiveFailures += 1;
    }
  }

  /** Keeps one dedicated connection LISTENing, reconnecting with backoff whenever it breaks. */
  private async listenLoop(): Promise<void> {
    let retryMs = LISTEN_RETRY_MIN_MS;
    while (!this.stopped) {
      try {
        await withDatabase(this.opts.databaseUrl, (client) =>
          new Promise<void>((resolve, reject) => {
            let heartbeat: NodeJS.Timeout | undefined;
            const done = (err?: unknown) => {
              clearInterval(heartbeat);
              this.stopListening = undefined;
              if (err) reject(err instanceof Error ? err : new Error(String(err)));
              else resolve();
            };
            this.stopListening = () => done();
            client.on("notification", () => this.trigger());
            client.on("error", (err: Error) => done(err));
            client.on("end", () => done(new Error("LISTEN connection closed")));
            client
              .query(`LISTEN "${OUTBOX_CHANNEL}"`)
              .then(() => {
                retryMs = LISTEN_RETRY_MIN_MS;
                this.opts.logger.debug("listening for outbox notifications");
                // Events committed while nobody listened sent their NOTIFY into the void.
                this.trigger();
                heartbeat = setInterval(() => client.query("SELECT 1").catch((err: unknown) => done(err)), LISTEN_HEARTBEAT_MS);
              })
              .catch((err: unknown) => done(err));
            if (this.stopped) done();
          }),
        );
      } catch (err) {
        if (this.stopped) break;
        this.opts.logger.warn("outbox LISTEN connection lost; polling continues, reconnecting", { err, retryInMs: retryMs });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, retryMs);
          this.wakeRetry = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeRetry = undefined;
        retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
      }
    }
  }
}

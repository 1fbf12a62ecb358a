import { listenToOutbox, ping, run, withDatabase, type Db } from "@esign/db";
import { unavailableDependency, type Dependency } from "@esign/errors";
import type { Logger } from "@esign/logger";
import type { MailThrottle, Producer, RecoveryMetrics } from "@esign/queue";
import { drainOutboxBatch, hasUnrelayedEvents, RELAY_BATCH_SIZE } from "./drain-outbox";

export interface OutboxRelayOptions {
  db: Db;
  databaseUrl: string;
  /** A producer on a fail-fast Redis connection: while Redis is away a drain must fail, not hang. */
  producer: Producer;
  logger: Logger;
  pollIntervalMs: number;
  /** MAILS_PER_CUSTOMER_PER_MINUTE: a held-back customer's signing requests are added delayed to their place. */
  mailThrottle?: MailThrottle;
  /** Reports how long the outbox took to empty once PostgreSQL answered again. */
  metrics?: RecoveryMetrics;
}

/** How a drain ended: the events it relayed, or the error that stopped it. */
type DrainOutcome = { ok: true; relayed: number } | { ok: false; error: unknown };

const LISTEN_RETRY_MIN_MS = 500;
const LISTEN_RETRY_MAX_MS = 30_000;
// A LISTEN connection that died silently (no RST) would never say so; a cheap query notices.
const LISTEN_HEARTBEAT_MS = 30_000;
// While Redis or PostgreSQL is away every poll fails; log the first failure and then only now and then.
const FAILURE_LOG_EVERY = 30;

/**
 * Publishes outbox events to the events queue. PostgreSQL's NOTIFY (sent by emitEvent at commit)
 * wakes it at once; a timer drains every pollIntervalMs as well, so a missed notification, a broken
 * listener or a failed drain costs latency, never an event. Several replicas may run: claims skip
 * rows locked by another replica.
 */
export class OutboxRelay {
  private stopped = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private draining: Promise<DrainOutcome> | undefined;
  private drainAgain = false;
  /** Whether the drain asked for next was requested by something that knows of new events. */
  private drainAgainWoken = false;
  private consecutiveFailures = 0;
  /** What the failing drains could not reach, while they fail. */
  private failingOn: Dependency | undefined;
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
   * Returns the drain that runs now (settles with its outcome, never rejects).
   * A timer poll ("poll") first asks whether anything is unrelayed (one statement) before opening a
   * claiming transaction: the poll is the safety net, and an idle relay mostly finds nothing.
   */
  trigger(reason: "wake" | "poll" = "wake"): Promise<DrainOutcome> | undefined {
    if (this.stopped) return undefined;
    if (this.draining) {
      this.drainAgain = true;
      if (reason === "wake") this.drainAgainWoken = true;
      return this.draining;
    }
    this.draining = this.drainUntilEmpty(reason === "poll").finally(() => {
      this.draining = undefined;
      if (this.drainAgain) {
        const woken = this.drainAgainWoken;
        this.drainAgain = false;
        this.drainAgainWoken = false;
        void this.trigger(woken ? "wake" : "poll");
      }
    });
    return this.draining;
  }

  /**
   * Drains until the outbox is empty, in a drain that starts after this call (one in progress may
   * have begun before Redis came back); resolves with how many events it relayed, rejects with what
   * stopped it. Run when Redis answers again, so its time is the outbox's recovery time.
   */
  async drainNow(): Promise<number> {
    while (this.draining) await this.draining;
    const outcome = await this.trigger();
    if (!outcome) return 0;
    if (!outcome.ok) throw outcome.error;
    return outcome.relayed;
  }

  private async drainUntilEmpty(probeFirst = false): Promise<DrainOutcome> {
    const started = Date.now();
    let total = 0;
    try {
      if (!probeFirst || (await hasUnrelayedEvents(this.opts.db))) {
        let relayed: number;
        do {
          relayed = await drainOutboxBatch(this.opts.db, this.opts.producer, RELAY_BATCH_SIZE, this.opts.mailThrottle);
          total += relayed;
          if (relayed > 0) this.opts.logger.debug("outbox events relayed", { count: relayed });
        } while (relayed === RELAY_BATCH_SIZE && !this.stopped);
      }
      if (this.consecutiveFailures > 0) this.recovered(started, total);
      return { ok: true, relayed: total };
    } catch (err) {
      if (this.consecutiveFailures % FAILURE_LOG_EVERY === 0) {
        this.opts.logger.warn("outbox drain failed; retried on the next poll", { err, failedDrains: this.consecutiveFailures + 1 });
      }
      this.consecutiveFailures += 1;
      this.failingOn = unavailableDependency(err);
      return { ok: false, error: err };
    }
  }

  /**
   * The first drain that got through after failed ones. When PostgreSQL was what they could not
   * reach, this drain began about when it answered again, so its duration is the outbox's recovery
   * time (a Redis reconnect is timed from the reconnect itself, see main.ts).
   */
  private recovered(drainStarted: number, relayed: number): void {
    const seconds = (Date.now() - drainStarted) / 1000;
    this.opts.logger.info("outbox relay recovered", { failedDrains: this.consecutiveFailures, dependency: this.failingOn, relayed, drainSeconds: seconds });
    if (this.failingOn === "postgres") this.opts.metrics?.recovered({ dependency: "postgres", backlog: "outbox", seconds, requeued: relayed });
    this.consecutiveFailures = 0;
    this.failingOn = undefined;
  }

  /** Keeps one dedicated connection LISTENing, reconnecting with backoff whenever it breaks. */
  private async listenLoop(): Promise<void> {
    let retryMs = LISTEN_RETRY_MIN_MS;
    while (!this.stopped) {
      try {
        await withDatabase(
          this.opts.databaseUrl,
          (client) =>
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
              listenToOutbox(client)
                .then(() => {
                  retryMs = LISTEN_RETRY_MIN_MS;
                  this.opts.logger.debug("listening for outbox notifications");
                  // Events committed while nobody listened sent their NOTIFY into the void.
                  this.trigger();
                  heartbeat = setInterval(() => run(client, ping, {}).catch((err: unknown) => done(err)), LISTEN_HEARTBEAT_MS);
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

import type { Response } from "express";
import { counterValue, type RedisConnection } from "@esign/queue";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { AppError } from "@esign/errors";
import { throttledLog, type Logger, type ThrottledLog } from "@esign/logger";

export interface RateLimitRule {
  /** Names the counter in Redis and in logs, e.g. "job-poll". */
  name: string;
  /** Requests (or failures) allowed per window; 0 turns the limit off. */
  points: number;
  windowSeconds: number;
}

export interface RateLimitOutcome {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** What a limited request is told: 429 with the IETF `RateLimit-*` headers and `Retry-After`. */
export class RateLimitedError extends AppError {
  constructor(message: string, headers: Record<string, string>) {
    super("too_many_requests", message, undefined, headers);
  }
}

// While Redis is away every request of a limit fails over the same way: one line this often says so.
const LOG_EVERY_MS = 10_000;

/**
 * A fixed-window counter per key, kept in Redis so that every gateway replica counts the same
 * requests (rate-limiter-flexible: one INCR + PEXPIRE per request). Two ways to use it: `consume`
 * counts every request (and sets the `RateLimit-*` headers on the answer, as GitHub and DocuSign
 * do); `assertUnder` + `recordFailure` count only failures (wrong secrets, unknown signing links),
 * so a client that gets it right is never slowed, and one that guesses is stopped before the work.
 *
 * While Redis does not answer, the same limit is counted in this process's memory: a limit is never
 * the reason for a 503 (creates and signatures go on while Redis is away, docs/operating.md, "Recovery"), and
 * guessing stays bounded, per replica instead of across them, until Redis is back.
 */
export class RateLimit {
  private readonly shared: RateLimiterRedis | null;
  private readonly local: RateLimiterMemory | null;
  private readonly logFallback: ThrottledLog;

  constructor(
    private readonly redis: RedisConnection,
    keyPrefix: string,
    private readonly rule: RateLimitRule,
    private readonly logger: Logger,
  ) {
    const on = rule.points > 0;
    const options = { keyPrefix: `${keyPrefix}:rl:${rule.name}`, points: rule.points, duration: rule.windowSeconds };
    // Fail at once when the connection is down instead of waiting for a reconnect.
    this.shared = on ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true }) : null;
    this.local = on ? new RateLimiterMemory(options) : null;
    this.logFallback = throttledLog(logger, LOG_EVERY_MS);
  }

  /** Counts one request for `key`; throws the 429 AppError, else sets the headers. */
  async consume(res: Response, key: string, message: string): Promise<void> {
    let outcome: RateLimiterRes;
    try {
      const o = await this.counted((l) => l.consume(key));
      if (!o) return;
      outcome = o;
    } catch (err) {
      if (err instanceof RateLimiterRes) throw this.limited(err, message);
      throw err;
    }
    for (const [k, v] of Object.entries(this.headers({ limit: this.rule.points, remaining: outcome.remainingPoints, resetSeconds: this.resetOf(outcome) }))) {
      res.setHeader(k, v);
    }
  }

  /** Throws the 429 when `key` has used up its allowance (of failures), without counting this request. */
  async assertUnder(key: string, message: string): Promise<void> {
    if (!this.shared) return;
    // Failures are rare, so the counter is almost always under its allowance: one GET says so (on
    // the create path, the costly-PDF budget's full read was ~3% of the gateway's CPU). At or past it,
    // or with Redis silent, the full read below gives the Retry-After or the in-memory fallback.
    if ((await counterValue(this.redis, this.shared.getKey(key))) < this.rule.points) return;
    const state = await this.counted((l) => l.get(key));
    if (state && state.consumedPoints >= this.rule.points) throw this.limited(state, message);
  }

  /**
   * Counts this attempt as a failure before the work (one atomic INCR, so parallel guesses cannot all
   * pass a check made before any of them failed); throws the 429 past the allowance. The attempt that
   * succeeds calls the returned function to give its point back.
   */
  async reserveFailure(key: string, message: string): Promise<() => Promise<void>> {
    try {
      await this.counted((l) => l.consume(key));
    } catch (err) {
      if (err instanceof RateLimiterRes) throw this.limited(err, message);
      throw err;
    }
    return async () => {
      await this.counted((l) => l.reward(key, 1)).catch((err: unknown) => {
        this.logger.warn("rate limit point not given back", { limit: this.rule.name, error: (err as Error).message });
      });
    };
  }

  /** Counts one failure for `key`; never throws (the request already has its answer). */
  async recordFailure(key: string): Promise<void> {
    await this.counted((l) => l.penalty(key, 1)).catch((err: unknown) => {
      this.logger.warn("rate limit failure not counted", { limit: this.rule.name, error: (err as Error).message });
    });
  }

  /**
   * Runs `op` on the Redis counter, or on the in-memory one when Redis does not answer. A 429
   * (RateLimiterRes) is passed on as it is. Null when the limit is off.
   */
  private async counted<T>(op: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T | null> {
    if (!this.shared || !this.local) return null;
    try {
      return await op(this.shared);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw err;
      this.logFallback("warn", "rate limit counted in this process: Redis did not answer", { limit: this.rule.name, error: (err as Error).message });
      return op(this.local);
    }
  }

  private resetOf(r: RateLimiterRes): number {
    return Math.max(0, Math.ceil(r.msBeforeNext / 1000));
  }

  private limited(r: RateLimiterRes, message: string): RateLimitedError {
    const retryAfter = Math.max(1, this.resetOf(r));
    return new RateLimitedError(message, {
      ...this.headers({ limit: this.rule.points, remaining: 0, resetSeconds: retryAfter }),
      "Retry-After": String(retryAfter),
    });
  }

  private headers(o: RateLimitOutcome): Record<string, string> {
    return {
      "RateLimit-Policy": `${o.limit};w=${this.rule.windowSeconds}`,
      "RateLimit-Limit": String(o.limit),
      "RateLimit-Remaining": String(o.remaining),
      "RateLimit-Reset": String(o.resetSeconds),
    };
  }
}

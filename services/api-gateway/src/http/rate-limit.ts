import type { Response } from "express";
import type { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "@esign/errors";
import type { Logger } from "@esign/logger";

export interface RateLimitRule {
  /** Names the counter in Redis and in logs, e.g. "job-poll". */
  name: string;
  /** Requests (or failures) allowed per window; 0 turns the limit off. */
  points: number;
  windowSeconds: number;
  /**
   * When Redis does not answer: true lets the request through (a read whose abuse costs little, such
   * as a job poll), false answers 503. Either way the failure is logged.
   */
  failOpen: boolean;
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

/**
 * A fixed-window counter per key, kept in Redis so that every gateway replica counts the same
 * requests (rate-limiter-flexible: one INCR + PEXPIRE per request). Two ways to use it: `consume`
 * counts every request (and sets the `RateLimit-*` headers on the answer, as GitHub and DocuSign
 * do); `assertUnder` + `recordFailure` count only failures (wrong secrets, unknown signing links),
 * so a client that gets it right is never slowed, and one that guesses is stopped before the work.
 */
export class RateLimit {
  private readonly limiter: RateLimiterRedis | null;

  constructor(
    redis: Redis,
    keyPrefix: string,
    private readonly rule: RateLimitRule,
    private readonly logger: Logger,
  ) {
    this.limiter =
      rule.points > 0
        ? new RateLimiterRedis({
            storeClient: redis,
            keyPrefix: `${keyPrefix}:rl:${rule.name}`,
            points: rule.points,
            duration: rule.windowSeconds,
            // Fail at once when the connection is down instead of waiting for a reconnect.
            rejectIfRedisNotReady: true,
          })
        : null;
  }

  /** Counts one request for `key`; throws the 429 (or 503) AppError, else sets the headers. */
  async consume(res: Response, key: string, message: string): Promise<void> {
    if (!this.limiter) return;
    let outcome: RateLimiterRes;
    try {
      outcome = await this.limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw this.limited(err, message);
      return this.redisDown(err);
    }
    for (const [k, v] of Object.entries(this.headers({ limit: this.rule.points, remaining: outcome.remainingPoints, resetSeconds: this.resetOf(outcome) }))) {
      res.setHeader(k, v);
    }
  }

  /** Throws the 429 when `key` has used up its allowance (of failures), without counting this request. */
  async assertUnder(key: string, message: string): Promise<void> {
    if (!this.limiter) return;
    let state: RateLimiterRes | null;
    try {
      state = await this.limiter.get(key);
    } catch (err) {
      return this.redisDown(err);
    }
    if (state && state.consumedPoints >= this.rule.points) throw this.limited(state, message);
  }

  /** Counts one failure for `key`; never throws (the request already has its answer). */
  async recordFailure(key: string): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.penalty(key, 1);
    } catch (err) {
      this.logger.warn("rate limit failure not counted: Redis did not answer", { limit: this.rule.name, error: (err as Error).message });
    }
  }

  private resetOf(r: RateLimiterRes): number {
    return Math.max(0, Math.ceil(r.msBeforeNext / 1000));
  }

  private limited(r: RateLimiterRes, message: string): RateLimitedError {
    const retryAfter = Math.max(1, this.resetOf(r));
    return new RateLimitedError(message, { ...this.headers({ limit: this.rule.points, remaining: 0, resetSeconds: retryAfter }), "Retry-After": String(retryAfter) });
  }

  private redisDown(err: unknown): void {
    this.logger.warn("rate limit not counted: Redis did not answer", { limit: this.rule.name, error: (err as Error).message });
    if (!this.rule.failOpen) throw new AppError("service_unavailable", "Service temporarily unavailable", undefined, { "Retry-After": "5" });
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

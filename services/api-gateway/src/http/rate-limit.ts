import type { Response } from "express";
import type { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "@esign/errors";
import type { Logger } from "@esign/logger";

export interface RateLimitRule {
  /** Names the counter in Redis and in logs, e.g. "job-poll". */
  name: string;
  /** Requests allowed per window. */
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

/**
 * A fixed-window counter per key, kept in Redis so that every gateway replica counts the same
 * requests (rate-limiter-flexible: one INCR + PEXPIRE per request). Answers with the IETF
 * `RateLimit-*` headers on every request and `Retry-After` on the 429, as GitHub and DocuSign do.
 */
export class RateLimit {
  private readonly limiter: RateLimiterRedis;

  constructor(
    redis: Redis,
    keyPrefix: string,
    private readonly rule: RateLimitRule,
    private readonly logger: Logger,
  ) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${keyPrefix}:rl:${rule.name}`,
      points: rule.points,
      duration: rule.windowSeconds,
      // Fail at once when the connection is down instead of waiting for a reconnect.
      rejectIfRedisNotReady: true,
    });
  }

  /** Counts one request for `key`; throws the 429 (or 503) AppError, else sets the headers. */
  async consume(res: Response, key: string, message: string): Promise<void> {
    let outcome: RateLimiterRes;
    try {
      outcome = await this.limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw new AppError("too_many_requests", message, undefined, {
          ...this.headers({ limit: this.rule.points, remaining: 0, resetSeconds: retryAfter }),
          "Retry-After": String(retryAfter),
        });
      }
      this.logger.warn("rate limit not counted: Redis did not answer", { limit: this.rule.name, error: (err as Error).message });
      if (this.rule.failOpen) return;
      throw new AppError("unavailable", "Service temporarily unavailable", undefined, { "Retry-After": "5" });
    }
    const headers = this.headers({
      limit: this.rule.points,
      remaining: outcome.remainingPoints,
      resetSeconds: Math.max(0, Math.ceil(outcome.msBeforeNext / 1000)),
    });
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
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

import { LuaScript, type RedisConnection } from "@esign/queue";
import { throttledLog, type Logger, type ThrottledLog } from "@esign/logger";
import { RateLimitedError } from "./rate-limit";

export interface FailureBudgetRule {
  /** Names the counters in Redis and in logs, e.g. "token-failures-address". */
  name: string;
  /** Failed attempts allowed per window; 0 turns the budget off. */
  points: number;
  windowSeconds: number;
}

/** One attempt reserved against a budget; settled once its outcome is known. */
export interface Reservation {
  settle(failed: boolean): Promise<void>;
}

// An attempt whose gateway died never settles: its slot frees itself after this long.
const IN_FLIGHT_TTL_MS = 30_000;
const LOG_EVERY_MS = 10_000;

/*
 * KEYS[1] failures of the window, KEYS[2] attempts in flight; ARGV[1] the budget, ARGV[2] in-flight TTL.
 * {1, 0} reserved; {0, ms} the window's failures are used up (ms left in it); {-1, 0} the attempts in
 * flight would, if they all failed, use it up: try again in a second.
 */
const RESERVE = new LuaScript(`
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
local inflight = tonumber(redis.call('GET', KEYS[2]) or '0')
local budget = tonumber(ARGV[1])
if failures >= budget then return {0, redis.call('PTTL', KEYS[1])} end
if failures + inflight >= budget then return {-1, 0} end
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return {1, 0}`);

/* KEYS as above; ARGV[1] "1" when the attempt failed, ARGV[2] the window in ms (from the first failure, never restarted). */
const SETTLE = new LuaScript(`
if tonumber(redis.call('DECR', KEYS[2])) <= 0 then redis.call('DEL', KEYS[2]) end
if ARGV[1] == '1' and redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`);

interface LocalCount {
  failures: number;
  resetAt: number;
  inflight: number;
}

/**
 * Failed attempts per key and window, counted before the work (issue 26, item 4): each attempt
 * reserves a slot atomically (one Lua script) before its secret is evaluated, and the reservation
 * is refused while the window's failures plus the attempts still in flight reach the budget. So 200
 * concurrent guesses against a budget of 10 get at most 10 evaluations, where "check, work, record"
 * evaluated all 200. A success gives its slot back; a failure keeps it for the rest of the window,
 * which starts at the first failure and is not restarted by later ones.
 *
 * While Redis does not answer, the same budget is kept in this process's memory (as RateLimit does):
 * a limit is never the reason for a 503.
 */
export class FailureBudget {
  private readonly local = new Map<string, LocalCount>();
  private readonly logFallback: ThrottledLog;

  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
    readonly rule: FailureBudgetRule,
    logger: Logger,
  ) {
    this.logFallback = throttledLog(logger, LOG_EVERY_MS);
  }

  get enabled(): boolean {
    return this.rule.points > 0;
  }

  /** Reserves one attempt for `key`; throws the 429 (Retry-After) when the budget is spent. */
  async reserve(key: string, message: string): Promise<Reservation> {
    if (!this.enabled) return { settle: async () => {} };
    const keys = [`${this.keyPrefix}:rl:${this.rule.name}:f:${key}`, `${this.keyPrefix}:rl:${this.rule.name}:i:${key}`] as const;
    let outcome: [number, number];
    let shared = true;
    try {
      outcome = (await RESERVE.run(this.redis, keys, [this.rule.points, IN_FLIGHT_TTL_MS])) as [number, number];
    } catch (err) {
      this.logFallback("warn", "failure budget counted in this process: Redis did not answer", { limit: this.rule.name, error: (err as Error).message });
      outcome = this.reserveLocally(key);
      shared = false;
    }
    const [status, ms] = outcome;
    if (status !== 1) throw this.limited(message, status === 0 ? ms : 1000);
    let settled = false;
    return {
      settle: async (failed: boolean) => {
        if (settled) return;
        settled = true;
        if (!shared) return this.settleLocally(key, failed);
        await SETTLE.run(this.redis, keys, [failed ? "1" : "0", this.rule.windowSeconds * 1000]).catch((err: unknown) => {
          this.logFallback("warn", "failure budget not settled: Redis did not answer", { limit: this.rule.name, error: (err as Error).message });
        });
      },
    };
  }

  private reserveLocally(key: string): [number, number] {
    const now = Date.now();
    let count = this.local.get(key);
    if (count && count.resetAt <= now) count.failures = 0;
    if (!count) this.local.set(key, (count = { failures: 0, resetAt: 0, inflight: 0 }));
    if (count.failures >= this.rule.points) return [0, count.resetAt - now];
    if (count.failures + count.inflight >= this.rule.points) return [-1, 0];
    count.inflight++;
    return [1, 0];
  }

  private settleLocally(key: string, failed: boolean): void {
    const count = this.local.get(key);
    if (!count) return;
    count.inflight = Math.max(0, count.inflight - 1);
    if (failed) {
      if (count.failures === 0 || count.resetAt <= Date.now()) {
        count.failures = 0;
        count.resetAt = Date.now() + this.rule.windowSeconds * 1000;
      }
      count.failures++;
    }
    if (count.failures === 0 && count.inflight === 0) this.local.delete(key);
  }

  private limited(message: string, ms: number): RateLimitedError {
    const retryAfter = Math.max(1, Math.ceil(ms / 1000));
    return new RateLimitedError(message, {
      "RateLimit-Policy": `${this.rule.points};w=${this.rule.windowSeconds}`,
      "RateLimit-Limit": String(this.rule.points),
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": String(retryAfter),
      "Retry-After": String(retryAfter),
    });
  }
}

/** Several budgets reserved for one attempt (address, client and address, client): all, or none. */
export async function reserveAll(parts: { budget: FailureBudget; key: string; message: string }[]): Promise<Reservation> {
  const held: Reservation[] = [];
  try {
    for (const p of parts) held.push(await p.budget.reserve(p.key, p.message));
  } catch (err) {
    await Promise.all(held.map((r) => r.settle(false)));
    throw err;
  }
  return { settle: async (failed) => void (await Promise.all(held.map((r) => r.settle(failed)))) };
}

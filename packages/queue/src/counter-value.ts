import type { RedisConnection } from "./redis";

/**
 * The points a fixed-window counter has used (rate-limiter-flexible's RateLimiterRedis; `key` from
 * its `getKey`), read with one GET: 0 when the window has no count yet, NaN when Redis did not
 * answer. The library's own read is MULTI GET PTTL EXEC, four commands, and is needed only for the
 * window's end: on a hot path (every create, every signing request) read this first and take the
 * full read only at or past the allowance, or on NaN (bench/README.md, round 7).
 */
export function counterValue(redis: RedisConnection, key: string): Promise<number> {
  return redis.get(key).then(
    (raw) => (raw === null ? 0 : Number(raw)),
    () => Number.NaN,
  );
}

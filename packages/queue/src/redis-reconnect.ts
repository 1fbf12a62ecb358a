import type { RedisConnection } from "./redis";

/**
 * Calls `onReconnect(outageMs)` each time the connection is ready again after it was lost (not on
 * the first connect). `ready` is ioredis' "commands go through again": for a fail-fast connection
 * the moment enqueues stop failing, for a worker connection the moment its queued commands are sent.
 * Returns the function that stops watching.
 */
export function onRedisReconnect(redis: RedisConnection, onReconnect: (outageMs: number) => void): () => void {
  let lostAt: number | undefined;
  const lost = () => {
    lostAt ??= Date.now();
  };
  const ready = () => {
    if (lostAt === undefined) return;
    const outageMs = Date.now() - lostAt;
    lostAt = undefined;
    onReconnect(outageMs);
  };
  redis.on("close", lost);
  redis.on("ready", ready);
  return () => {
    redis.off("close", lost);
    redis.off("ready", ready);
  };
}

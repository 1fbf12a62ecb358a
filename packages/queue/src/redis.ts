import { Redis } from "ioredis";

export type RedisRole = "worker" | "producer";

/**
 * Waits between reconnect attempts: 50 ms more per failed attempt, at most 500 ms. ioredis' default
 * grows to 2 s, which is how late a service could notice that Redis is back; a refused connect
 * costs next to nothing, so trying twice a second is cheap.
 */
export const reconnectDelayMs = (attempt: number): number => Math.min(attempt * 50, 500);

/**
 * Workers block on Redis and must wait through outages (`maxRetriesPerRequest: null`); the HTTP side
 * must fail fast so a request gets a 503 instead of hanging while Redis is away.
 */
export function createRedis(url: string, role: RedisRole): Redis {
  return role === "worker"
    ? new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, retryStrategy: reconnectDelayMs })
    : new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, retryStrategy: reconnectDelayMs });
}

/** BullMQ loses jobs when Redis evicts keys; refuse to run on an evicting Redis. */
export async function assertNoEviction(redis: Redis): Promise<void> {
  const reply = (await redis.config("GET", "maxmemory-policy")) as unknown;
  const policy = Array.isArray(reply) ? String(reply[1]) : "unknown";
  if (policy !== "noeviction") {
    throw new Error(`Redis maxmemory-policy is "${policy}"; BullMQ needs "noeviction" or jobs can be lost`);
  }
}

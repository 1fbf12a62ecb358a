import { createRedis, type RedisConnection } from "../src/redis";

/**
 * A connection to the tests' Redis for one test file, and a key prefix of its own, whose keys are
 * deleted after the file's tests. Registers the file's beforeAll and afterAll.
 */
export function useTestRedis(name: string): { redis: () => RedisConnection; prefix: string } {
  let redis: RedisConnection | undefined;
  const prefix = `esign-test-${name}-${process.pid}-${Date.now().toString(36)}`;
  beforeAll(() => {
    redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "worker");
  });
  afterAll(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });
  return {
    redis: () => {
      if (!redis) throw new Error("the test Redis is connected in beforeAll");
      return redis;
    },
    prefix,
  };
}

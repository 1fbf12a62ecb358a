import { Redis } from "ioredis";

/**
 * Every key under a Redis prefix and every value stored there, whatever its type: what a test
 * searches for something that must never reach Redis (a secret, a national id).
 */
export async function redisValues(redisUrl: string, prefix: string): Promise<string[]> {
  const redis = new Redis(redisUrl);
  const values: string[] = [];
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      cursor = next;
      for (const key of keys) {
        values.push(key);
        const type = await redis.type(key);
        if (type === "string") values.push((await redis.get(key)) ?? "");
        else if (type === "hash") values.push(...Object.values(await redis.hgetall(key)));
        else if (type === "list") values.push(...(await redis.lrange(key, 0, -1)));
        else if (type === "set") values.push(...(await redis.smembers(key)));
        else if (type === "zset") values.push(...(await redis.zrange(key, 0, -1)));
        else if (type === "stream") values.push(JSON.stringify(await redis.xrange(key, "-", "+")));
      }
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
  return values;
}

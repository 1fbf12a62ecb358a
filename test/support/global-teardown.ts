import { rmSync } from "node:fs";
import { Redis } from "ioredis";
import { dropDatabase } from "@esign/db";

/** Leaves nothing behind: the run's database, its Redis keys and its files. */
export default async function globalTeardown(): Promise<void> {
  if (process.env.KEEP_TEST_DATA === "1") return;
  const { DATABASE_URL, QUEUE_PREFIX, REDIS_URL, ESIGN_TEST_DIR } = process.env;
  if (DATABASE_URL?.includes("/esign_test_")) await dropDatabase(DATABASE_URL);
  if (QUEUE_PREFIX?.startsWith("esign-test-") && REDIS_URL) {
    const redis = new Redis(REDIS_URL);
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${QUEUE_PREFIX}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
    await redis.quit();
  }
  if (ESIGN_TEST_DIR) rmSync(ESIGN_TEST_DIR, { recursive: true, force: true });
}

import { createRedis, type RedisConnection } from "@esign/queue";
import { MailThrottle, MailThrottled } from "../src/domain/mail-throttle";

/*
 * MAILS_PER_CUSTOMER_PER_MINUTE (spec limits): `take` counts a message against the customer's minute;
 * `hold` only looks, before a message's transaction, so that a request held back costs one Redis read
 * at each retry instead of a lock, the signer's read and a rollback.
 */

let redis: RedisConnection;
const prefix = `esign-test-throttle-${process.pid}-${Date.now().toString(36)}`;

beforeAll(() => {
  redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "worker");
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

it("hold lets a customer under its minute through without taking from it, and holds it back once take used the minute up", async () => {
  const throttle = new MailThrottle(redis, prefix, 2);
  await throttle.hold(7);
  await throttle.hold(7);
  await throttle.hold(7);
  // Three holds took nothing: both messages of the minute are still there.
  await throttle.take(7);
  await throttle.take(7);
  const held = await throttle.hold(7).catch((err: unknown) => err);
  expect(held).toBeInstanceOf(MailThrottled);
  expect((held as MailThrottled).retryAt).toBeGreaterThanOrEqual(Date.now() + 900);
  await expect(throttle.take(7)).rejects.toBeInstanceOf(MailThrottled);
  // Another customer's minute is its own.
  await throttle.hold(8);
});

it("never holds back with the limit off (0)", async () => {
  const throttle = new MailThrottle(redis, `${prefix}-off`, 0);
  for (let i = 0; i < 5; i++) await throttle.take(9);
  await throttle.hold(9);
});

import { randomUUID } from "node:crypto";
import type { RedisConnection } from "../src/redis";
import { LuaScript } from "../src/lua-script";
import { useTestRedis } from "./redis-fixture";

/*
 * The throttles' scripts go by their SHA1 (EVALSHA); a Redis that does not have a script yet (new,
 * restarted, flushed) gets it once through EVAL. Each test's script is new to Redis (a unique comment
 * in its source), so the first call meets NOSCRIPT for certain, whatever other suites loaded.
 */

const { redis: connection, prefix } = useTestRedis("lua");

function counter(): LuaScript {
  return new LuaScript(`-- ${randomUUID()}\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])`);
}

/** Counts the script calls a connection sends, by command, on the real connection. */
function countCalls(connection: RedisConnection): { eval: number; evalsha: number } {
  const calls = { eval: 0, evalsha: 0 };
  const original = { eval: connection.eval.bind(connection), evalsha: connection.evalsha.bind(connection) };
  jest.spyOn(connection, "eval").mockImplementation((...args: Parameters<typeof connection.eval>) => {
    calls.eval += 1;
    return original.eval(...args);
  });
  jest.spyOn(connection, "evalsha").mockImplementation((...args: Parameters<typeof connection.evalsha>) => {
    calls.evalsha += 1;
    return original.evalsha(...args);
  });
  return calls;
}

afterEach(() => jest.restoreAllMocks());

it("loads a script Redis lacks through one EVAL, then sends only its digest", async () => {
  const redis = connection();
  const script = counter();
  const key = `${prefix}:a`;
  expect(await redis.script("EXISTS", script.sha1)).toEqual([0]);
  const calls = countCalls(redis);

  expect(await script.run(redis, [key], [2])).toBe(2);
  expect(calls).toEqual({ eval: 1, evalsha: 1 });
  expect(await redis.script("EXISTS", script.sha1)).toEqual([1]);

  expect(await script.run(redis, [key], [3])).toBe(5);
  expect(await script.run(redis, [key], [1])).toBe(6);
  expect(calls).toEqual({ eval: 1, evalsha: 3 });
});

it("passes a script's own error on without running it a second time", async () => {
  const failing = new LuaScript(`-- ${randomUUID()}\nredis.call('INCR', KEYS[1])\nreturn redis.error_reply('refused by the script')`);
  const key = `${prefix}:b`;
  const redis = connection();
  await expect(failing.run(redis, [key], [])).rejects.toThrow("refused by the script");
  // Once through EVAL (NOSCRIPT first), not again after the script's own error.
  expect(await redis.get(key)).toBe("1");
  await expect(failing.run(redis, [key], [])).rejects.toThrow("refused by the script");
  expect(await redis.get(key)).toBe("2");
});

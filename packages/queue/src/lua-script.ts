import { createHash } from "node:crypto";
import type { RedisConnection } from "./redis";

/** A Redis reply to a script call with a script Redis does not have (yet, or since a restart or SCRIPT FLUSH). */
function isNoScript(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith("NOSCRIPT");
}

/**
 * A Lua script called by its SHA1 (EVALSHA): every call sends the digest instead of the source, and
 * Redis looks the compiled script up instead of hashing the source again. EVAL sent the whole text
 * on every call (the mail throttle's ~1.5 KB once per drain of signing requests; a throttled webhook
 * subscription's script once per delivery). A Redis without the script (new, restarted, flushed, or
 * another node of a cluster) answers NOSCRIPT; the call then goes once as EVAL, which also loads it
 * there. ioredis' defineCommand does the same but adds a method to a shared connection per name.
 */
export class LuaScript {
  readonly sha1: string;

  constructor(readonly source: string) {
    this.sha1 = createHash("sha1").update(source).digest("hex");
  }

  async run(redis: RedisConnection, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha1, keys.length, ...keys, ...args);
    } catch (err) {
      if (!isNoScript(err)) throw err;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

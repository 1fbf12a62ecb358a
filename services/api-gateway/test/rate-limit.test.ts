import type { Response } from "express";
import { Redis } from "ioredis";
import { createLogger } from "@esign/logger";
import { RateLimit, RateLimitedError } from "../src/http/rate-limit";
import { freePort } from "../../../test/support/ports";

/*
 * The abuse limits count in Redis, shared by every replica; while Redis does not answer they go on
 * counting in the process's memory, so that a limit never turns a create or a signature into a 503
 * (docs/operating.md, "Recovery") and guessing stays bounded.
 */

const logger = createLogger({ service: "rate-limit-test", level: "error" });

function fakeResponse(): Response & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  return { headers, setHeader: (k: string, v: string) => void (headers[k] = v) } as unknown as Response & { headers: Record<string, string> };
}

async function outcomes(limit: RateLimit, key: string, n: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < n; i++) {
    try {
      await limit.consume(fakeResponse(), key, "slow down");
      seen.push("ok");
    } catch (err) {
      seen.push(err instanceof RateLimitedError ? "429" : `other: ${(err as Error).message}`);
    }
  }
  return seen;
}

describe("RateLimit", () => {
  const prefix = `${process.env.QUEUE_PREFIX ?? "esign-test"}:rate-limit-test:${Date.now()}`;
  let redis: Redis;
  let away: Redis;

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
    await redis.ping();
    // A Redis nobody listens on, as during a restart: commands fail at once.
    away = new Redis({
      host: "127.0.0.1",
      port: await freePort(),
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    await away.connect().catch(() => undefined);
  });

  afterAll(async () => {
    redis.disconnect();
    away.disconnect();
  });

  it("answers 429 past its points, with the RateLimit-* headers before that", async () => {
    const limit = new RateLimit(redis, prefix, { name: "consume", points: 3, windowSeconds: 60 }, logger);
    const res = fakeResponse();
    await limit.consume(res, "k", "slow down");
    expect(res.headers).toMatchObject({ "RateLimit-Limit": "3", "RateLimit-Remaining": "2", "RateLimit-Policy": "3;w=60" });
    expect(await outcomes(limit, "k", 3)).toEqual(["ok", "ok", "429"]);
    // Another key has its own allowance.
    expect(await outcomes(limit, "other", 1)).toEqual(["ok"]);
  });

  it("shares one count between instances (replicas) through Redis", async () => {
    const a = new RateLimit(redis, prefix, { name: "shared", points: 2, windowSeconds: 60 }, logger);
    const b = new RateLimit(redis, prefix, { name: "shared", points: 2, windowSeconds: 60 }, logger);
    expect(await outcomes(a, "k", 1)).toEqual(["ok"]);
    expect(await outcomes(b, "k", 2)).toEqual(["ok", "429"]);
  });

  it("counts failures only, and stops the next attempt once they are used up", async () => {
    const limit = new RateLimit(redis, prefix, { name: "failures", points: 2, windowSeconds: 60 }, logger);
    await limit.assertUnder("k", "too many");
    await limit.recordFailure("k");
    await limit.assertUnder("k", "too many");
    await limit.recordFailure("k");
    const refused = await limit.assertUnder("k", "too many").catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RateLimitedError);
    // Past the allowance the full read gives the window's end (the check under it reads the count alone).
    expect(Number((refused as RateLimitedError).headers?.["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(Number((refused as RateLimitedError).headers?.["Retry-After"])).toBeLessThanOrEqual(60);
  });

  it("goes on counting in memory while Redis does not answer: 429s, never a 503", async () => {
    const limit = new RateLimit(away, prefix, { name: "away", points: 2, windowSeconds: 60 }, logger);
    expect(await outcomes(limit, "k", 3)).toEqual(["ok", "ok", "429"]);
    const failures = new RateLimit(away, prefix, { name: "away-failures", points: 1, windowSeconds: 60 }, logger);
    await failures.assertUnder("k", "too many");
    await failures.recordFailure("k");
    await expect(failures.assertUnder("k", "too many")).rejects.toBeInstanceOf(RateLimitedError);
  });

  it("is off at 0 points", async () => {
    const limit = new RateLimit(away, prefix, { name: "off", points: 0, windowSeconds: 60 }, logger);
    expect(await outcomes(limit, "k", 5)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
  });
});

import type { Redis } from "ioredis";

/*
 * What a queue costs in Redis, measured key by key with MEMORY USAGE (SAMPLES 0 = exact, every
 * element counted) over the queue's own prefix: INFO's used_memory belongs to the whole shared
 * Redis, where other runs come and go.
 */

export interface QueueMemory {
  keys: number;
  totalBytes: number;
  jobHashes: { count: number; bytes: number };
  byKey: Record<string, number>;
  delayedCount: number;
  completedCount: number;
  streamEntries: number;
}

const JOB_HASH = /:[0-9a-f-]{36}-\d+$/;

export async function queueMemory(redis: Redis, prefix: string, queue: string): Promise<QueueMemory> {
  const base = `${prefix}:${queue}:`;
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", `${base}*`, "COUNT", 2000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  const sizes: number[] = [];
  for (let i = 0; i < keys.length; i += 1000) {
    const p = redis.pipeline();
    for (const k of keys.slice(i, i + 1000)) p.call("MEMORY", "USAGE", k, "SAMPLES", "0");
    const res = (await p.exec()) ?? [];
    for (const [, v] of res) sizes.push(Number(v ?? 0));
  }
  const result: QueueMemory = {
    keys: keys.length,
    totalBytes: 0,
    jobHashes: { count: 0, bytes: 0 },
    byKey: {},
    delayedCount: 0,
    completedCount: 0,
    streamEntries: 0,
  };
  keys.forEach((k, i) => {
    const size = sizes[i] ?? 0;
    result.totalBytes += size;
    if (JOB_HASH.test(k)) {
      result.jobHashes.count += 1;
      result.jobHashes.bytes += size;
    } else {
      const name = k.slice(base.length);
      result.byKey[name] = (result.byKey[name] ?? 0) + size;
    }
  });
  result.delayedCount = await redis.zcard(`${base}delayed`);
  result.completedCount = await redis.zcard(`${base}completed`);
  result.streamEntries = await redis.xlen(`${base}events`).catch(() => 0);
  return result;
}

/**
 * Exact MEMORY USAGE of every delayed job's hash: with the delayed set's bytes per entry, what one
 * more pending retry costs.
 */
export async function delayedJobHashBytes(redis: Redis, prefix: string, queue: string): Promise<number> {
  const ids = await redis.zrange(`${prefix}:${queue}:delayed`, 0, -1);
  if (ids.length === 0) return NaN;
  let total = 0;
  for (let i = 0; i < ids.length; i += 1000) {
    const p = redis.pipeline();
    for (const id of ids.slice(i, i + 1000)) p.call("MEMORY", "USAGE", `${prefix}:${queue}:${id}`, "SAMPLES", "0");
    const res = (await p.exec()) ?? [];
    total += res.reduce((n, [, v]) => n + Number(v ?? 0), 0);
  }
  return total / ids.length;
}

import { Redis } from "ioredis";
import { scrapeMetrics } from "./metrics-scrape";
import type { BenchProcess } from "./services";

/*
 * Counts, not timings: what a case file or a delivery costs in PostgreSQL round trips, transactions
 * and Redis commands. They do not depend on how busy the machine is, so they are the figures to
 * compare before and after a change on a shared machine.
 *
 * PostgreSQL: each service's own counters (`esign_db_round_trips`, `esign_db_transactions` on its
 * /metrics, with DB_STATEMENT_METRICS=true). Redis: `INFO commandstats` of the bench's private
 * redis-server (every client's commands, and the commands Lua scripts run count too, under their own
 * names; EVALSHA is the number of scripts called) and `total_reads_processed`, the socket reads the
 * server made: about one per client round trip (a pipeline's commands arrive in one write, so one read;
 * a request over 16 KB takes several), the bench's own INFO calls taken out.
 */

export interface SqlCounts {
  roundTrips: number;
  transactions: number;
}

/** A service's PostgreSQL counts so far; undefined when it does not count (DB_STATEMENT_METRICS off). */
export async function sqlCountsOf(proc: BenchProcess, metricsToken: string): Promise<SqlCounts | undefined> {
  const text = await scrapeMetrics(proc, metricsToken);
  if (text === undefined) return undefined;
  const read = (name: string) => {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})?\\s+(\\S+)$`, "m").exec(text);
    return m ? Number(m[1]) : undefined;
  };
  const roundTrips = read("esign_db_round_trips");
  const transactions = read("esign_db_transactions");
  return roundTrips === undefined || transactions === undefined ? undefined : { roundTrips, transactions };
}

/** `INFO commandstats` as calls by command name (lower case; `client|setname` style subcommands kept). */
export function parseCommandStats(info: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

/** A counter of `INFO stats`. */
function statOf(info: string, name: string): number {
  const m = new RegExp(`^${name}:(\\d+)`, "m").exec(info);
  if (!m) throw new Error(`INFO stats has no ${name} (Redis 6 or newer needed)`);
  return Number(m[1]);
}

/** A reading of `INFO stats commandstats`: calls by command, and under READS and CONNECTIONS the server's socket reads and connections so far. */
export function parseRedisReading(info: string): Record<string, number> {
  return { ...parseCommandStats(info), [READS]: statOf(info, "total_reads_processed"), [CONNECTIONS]: statOf(info, "total_connections_received") };
}

/** A reading of the server, in one INFO (two sections: Redis 7). */
export async function redisCommandStats(redisUrl: string): Promise<Record<string, number>> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  try {
    return parseRedisReading((await redis.call("INFO", "stats", "commandstats")) as string);
  } finally {
    redis.disconnect();
  }
}

/** The keys of the socket reads and the connections made in a reading (not command names: those are lower case). */
export const READS = "READS";
export const CONNECTIONS = "CONNECTIONS";

/** Counts at one moment, read so that the reading's own cost falls between `end` and `start`. */
export interface CountSnapshot {
  /** Before this reading's scrapes: where an interval ending here stops. */
  end: { at: number; sql: Record<string, SqlCounts | undefined>; redis: Record<string, number> };
  /** After them: where an interval starting here begins. */
  start: { at: number; sql: Record<string, SqlCounts | undefined>; redis: Record<string, number> };
}

/** The bench's own INFO calls are no one's cost. */
const OWN_COMMANDS = new Set(["info"]);

const scrapeAll = async (procs: readonly BenchProcess[], metricsToken: string) =>
  Object.fromEntries(await Promise.all(procs.map(async (p) => [p.name, await sqlCountsOf(p, metricsToken)] as const)));

/**
 * A scrape costs the services work of their own: gauges read on scrape (queue depths from Redis, the
 * dispatcher's backlog from PostgreSQL), cached 1 s. So each process is scraped twice in a row: the
 * first scrape's counts are read before its gauges run (the counts are collected first), the second
 * finds the gauges cached and adds nothing; an interval runs from one reading's second scrape to the
 * next reading's first, and no scrape's cost falls inside it. Redis is read before and after both.
 */
export async function snapshot(procs: readonly BenchProcess[], metricsToken: string, redisUrl: string): Promise<CountSnapshot> {
  const redisEnd = await redisCommandStats(redisUrl);
  const at = performance.now();
  const sqlEnd = await scrapeAll(procs, metricsToken);
  const sqlStart = await scrapeAll(procs, metricsToken);
  const redisStart = await redisCommandStats(redisUrl);
  return { end: { at, sql: sqlEnd, redis: redisEnd }, start: { at: performance.now(), sql: sqlStart, redis: redisStart } };
}

export interface CountDelta {
  /** Per service, and `total`. */
  sql: Record<string, SqlCounts>;
  /** Calls by command, busiest first, and the sum; `reads`: the server's socket reads (about round trips). */
  redis: { total: number; scripts: number; reads: number; byCommand: Record<string, number> };
  wallMs: number;
}

/** What happened between two snapshots, divided by `per` (case files, deliveries). */
export function countDelta(from: CountSnapshot, to: CountSnapshot, per: number): CountDelta {
  const before = from.start;
  const after = to.end;
  const wallMs = after.at - before.at;
  const sql: Record<string, SqlCounts> = {};
  const total = { roundTrips: 0, transactions: 0 };
  for (const [name, a] of Object.entries(after.sql)) {
    const b = before.sql[name];
    if (!a || !b) continue;
    const roundTrips = (a.roundTrips - b.roundTrips) / per;
    const transactions = (a.transactions - b.transactions) / per;
    sql[name] = { roundTrips: round2(roundTrips), transactions: round2(transactions) };
    total.roundTrips += roundTrips;
    total.transactions += transactions;
  }
  sql.total = { roundTrips: round2(total.roundTrips), transactions: round2(total.transactions) };
  const byCommand: Record<string, number> = {};
  for (const [cmd, calls] of Object.entries(after.redis)) {
    if (OWN_COMMANDS.has(cmd) || cmd === READS || cmd === CONNECTIONS) continue;
    const d = (calls - (before.redis[cmd] ?? 0)) / per;
    if (d >= 0.005) byCommand[cmd] = round2(d);
  }
  const sorted = Object.fromEntries(Object.entries(byCommand).sort((x, y) => y[1] - x[1]));
  const sum = Object.values(byCommand).reduce((s, v) => s + v, 0);
  const scripts = (byCommand.evalsha ?? 0) + (byCommand.eval ?? 0) + (byCommand.fcall ?? 0);
  // The bench's own: each INFO (readings, quiet polls, ready checks) is a read, and each of its
  // connections is closed, one read more (the services keep theirs open: new ones are the bench's).
  const ownReads = (after.redis.info ?? 0) - (before.redis.info ?? 0) + (after.redis[CONNECTIONS] ?? 0) - (before.redis[CONNECTIONS] ?? 0);
  const reads = ((after.redis[READS] ?? 0) - (before.redis[READS] ?? 0) - ownReads) / per;
  return { sql, redis: { total: round2(sum), scripts: round2(scripts), reads: round2(reads), byCommand: sorted }, wallMs: Math.round(wallMs) };
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * Polls Redis until no command but the bench's own has run for `quietMs` (the pipeline is done: every
 * step of it ends in a job completing or an event relayed, both Redis commands), at most `timeoutMs`.
 * Reads Redis only: a scrape of the services would cost them work.
 */
export async function untilQuiet(redisUrl: string, quietMs = 1500, timeoutMs = 30_000): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const total = async () =>
    Object.entries(parseCommandStats(await redis.info("commandstats")))
      .filter(([cmd]) => !OWN_COMMANDS.has(cmd))
      .reduce((sum, [, calls]) => sum + calls, 0);
  try {
    const deadline = performance.now() + timeoutMs;
    let last = await total();
    let since = performance.now();
    while (performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      const now = await total();
      if (now !== last) {
        last = now;
        since = performance.now();
      } else if (performance.now() - since >= quietMs) return;
    }
  } finally {
    redis.disconnect();
  }
}

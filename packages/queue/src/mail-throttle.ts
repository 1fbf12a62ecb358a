import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Job } from "bullmq";
import { DelayedError } from "bullmq";
import { z } from "zod";
import { counterValue } from "./counter-value";
import { LuaScript } from "./lua-script";
import type { RedisConnection } from "./redis";

/** The customer sent its minute's worth of messages: the job waits until `retryAt` (ms). */
export class MailThrottled extends Error {
  override readonly name = "MailThrottled";
  constructor(
    readonly customerId: number,
    readonly retryAt: number,
  ) {
    super(`customer ${customerId} reached MAILS_PER_CUSTOMER_PER_MINUTE; held back until ${new Date(retryAt).toISOString()}`);
  }
}

const WINDOW_MS = 60_000;

/** TAKE_PLACES' answer: free, the anchor's and the earliest offsets (ms, as text), then the tickets. */
const ZPlacesReply = z.tuple([z.number(), z.union([z.string(), z.number()]), z.union([z.string(), z.number()])]).rest(z.number());

/*
 * The line of a customer's held-back messages. Each held message gets the next ticket, and ticket s
 * is due at anchor + floor(s / limit) windows + (s mod limit) spacings (spacing: window / limit):
 * the line leaves at the limit's own pace. Before the line, every held message was due at the
 * window's end: a backlog of B messages woke all at once, each window, B fetches and B re-holds
 * for `limit` sends (the one-customer bench: most of the notifier's CPU, issue 25).
 *
 * KEYS[1]: the customer's minute counter (rate-limiter-flexible's key), KEYS[2]: its line (a hash:
 * anchor, count, and "t:<message id>" -> ticket for the messages given ids). ARGV: n messages, the
 * limit, the window (ms), "1" when the messages are new (they join the back of an existing line
 * rather than pass it), "0" when they were due (their turn came), then optionally the n messages'
 * ids. Times are Redis' (TIME), returned as offsets from its now, so replicas' clocks need not agree.
 * Returns { free, anchor offset, earliest offset, ticket... }: the first `free` messages go now, the
 * others have the tickets listed, in order.
 *
 * A message with an id keeps its ticket: asked for again while the line lasts (a writer's publishing
 * and the outbox relay's poll meeting on the same events, or a drain retried after Redis refused its
 * jobs), it gets the same place instead of a second one. Without ids, every message takes a new
 * place (a due message held back again: its old place has passed). The ids live in the line's hash
 * and expire with it.
 */
const TAKE_PLACES = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
local windowEnd = now
if used >= limit and ttl > 0 then windowEnd = now + ttl end
local free = math.max(0, limit - used)
local line = redis.call('HMGET', KEYS[2], 'anchor', 'count')
if line[1] and ARGV[4] == '1' then free = 0 end
if free >= n then return { n, 0, 0, 0 } end
local anchor = tonumber(line[1] or '0')
local count = tonumber(line[2] or '0')
if not line[1] then
  anchor = now + (ttl > 0 and ttl or window)
  redis.call('HSET', KEYS[2], 'anchor', string.format('%.0f', anchor))
end
local reply = { free, string.format('%.0f', anchor - now), string.format('%.0f', windowEnd - now) }
local fresh = 0
for i = free + 1, n do
  local id = ARGV[4 + i]
  local known = id and redis.call('HGET', KEYS[2], 't:' .. id)
  if known then
    reply[#reply + 1] = tonumber(known)
  else
    local ticket = count + fresh
    fresh = fresh + 1
    reply[#reply + 1] = ticket
    if id then redis.call('HSET', KEYS[2], 't:' .. id, ticket) end
  end
end
if fresh > 0 then
  redis.call('HSET', KEYS[2], 'count', count + fresh)
  local last = count + fresh - 1
  local lastAt = anchor + math.floor(last / limit) * window + (last % limit) * math.floor(window / limit)
  redis.call('PEXPIRE', KEYS[2], math.max(1000, lastAt - now + window))
end
return reply
`);

/**
 * MAILS_PER_CUSTOMER_PER_MINUTE: one case file with hundreds of signers, or a burst of creates,
 * must not make the platform a mass mailer (or get its sending domain blocked). Counted in Redis,
 * so every notifier replica counts the same messages. Over the limit a message is held back, never
 * dropped: its job waits in the queue, delayed to its place in the customer's line, and the line
 * leaves at the limit's pace. The outbox relay adds a held-back customer's signing requests delayed
 * already (`placesFor`): the notifier first sees them when they are due.
 */
export class MailThrottle {
  private readonly limiter: RateLimiterRedis | null;

  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
    perMinute: number,
  ) {
    this.limiter =
      perMinute > 0
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `${keyPrefix}:rl:mails-customer`, points: perMinute, duration: WINDOW_MS / 1000 })
        : null;
  }

  // The customer's id in braces: its counter and its line share a Redis Cluster slot (one script).
  private static key(customerId: number): string {
    return `{${customerId}}`;
  }

  /**
   * When each of `n` new messages of the customer may go, as delays in ms (0: now). Messages beyond
   * the minute's room, or behind an existing line, take the line's next places; with `ids` (one per
   * message, stable across retries: the jobs' ids) a message asked for again keeps its place. Looks
   * only: the minute is taken from by `take`, when a message is sent.
   */
  async placesFor(customerId: number, n: number, joinLine = true, ids?: readonly string[]): Promise<number[]> {
    if (!this.limiter || n <= 0) return new Array<number>(Math.max(0, n)).fill(0);
    if (ids && ids.length !== n) throw new Error(`placesFor: ${ids.length} ids for ${n} messages`);
    const key = MailThrottle.key(customerId);
    const reply = ZPlacesReply.parse(
      await TAKE_PLACES.run(
        this.redis,
        [this.limiter.getKey(key), `${this.keyPrefix}:rl:mails-line:${key}`],
        [n, this.limiter.points, WINDOW_MS, joinLine ? "1" : "0", ...(ids ?? [])],
      ),
    );
    const [free, anchorOffset, earliestOffset, ...tickets] = reply;
    if (free >= n) return new Array<number>(n).fill(0);
    const anchor = Number(anchorOffset);
    const earliest = Number(earliestOffset);
    const points = this.limiter.points;
    const spacing = Math.floor(WINDOW_MS / points);
    return Array.from({ length: n }, (_, i) => {
      if (i < free) return 0;
      const s = Number(tickets[i - free] ?? 0);
      return Math.max(earliest, anchor + Math.floor(s / points) * WINDOW_MS + (s % points) * spacing, 0);
    });
  }

  /**
   * Throws MailThrottled when the customer's minute is used up, without taking from it: checked
   * before a message's transaction, so that a held-back message costs one Redis script, not a lock,
   * the signer's read and a rollback. A message whose turn came goes when the minute has room, even
   * with a line behind it; otherwise it takes the line's next place.
   */
  async hold(customerId: number): Promise<void> {
    if (!this.limiter) return;
    // Most customers are under their minute: one GET says so; the script only for the window's end.
    if ((await counterValue(this.redis, this.limiter.getKey(MailThrottle.key(customerId)))) < this.limiter.points) return;
    const [delay = 0] = await this.placesFor(customerId, 1, false);
    if (delay > 0) throw new MailThrottled(customerId, Date.now() + delay);
  }

  /** Takes one message of the customer's minute, or throws MailThrottled. */
  async take(customerId: number): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(MailThrottle.key(customerId));
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const [delay = 0] = await this.placesFor(customerId, 1, false);
      throw new MailThrottled(customerId, Date.now() + Math.max(1000, delay));
    }
  }
}

/** Runs a message job; a MailThrottled run goes back to the queue, delayed, without counting an attempt. */
export async function withMailThrottle<T>(job: Job, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof MailThrottled)) throw err;
    await job.moveToDelayed(err.retryAt, job.token);
    throw new DelayedError(err.message);
  }
}

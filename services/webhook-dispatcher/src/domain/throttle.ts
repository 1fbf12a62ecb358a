import { LuaScript, type RedisConnection } from "@esign/queue";

/*
 * Per-subscription throttling, shared by every dispatcher replica: Redis keeps, per subscription, the
 * next free send time; each send reserves the next slot, 1/maxPerSecond after the previous one
 * (strict spacing, no burst allowance: a receiver asking for 5 per second never sees more than that in
 * any second). The clock is Redis' own (TIME), so replicas with skewed clocks share one schedule.
 * Waiting for a slot is not an attempt: nothing is recorded and the retry ladder does not move.
 */

// KEYS[1]: the subscription's key. ARGV[1]: spacing in microseconds. Returns {slot, now} in ms.
// Microseconds so that rates that do not divide 1000 (3 per second) keep their exact spacing.
const RESERVE_SLOT = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local nextFree = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(nextFree, now)
local spacing = tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.0f', slot + spacing), 'PX', math.ceil((slot + spacing - now) / 1000) + 60000)
return { string.format('%.0f', math.floor(slot / 1000)), string.format('%.0f', math.floor(now / 1000)) }
`);

export interface ThrottleSlot {
  /** Redis time (ms) at which this send may go. */
  slotAt: number;
  /** How long to wait from now. */
  waitMs: number;
}

export interface Throttle {
  reserve(subscriptionId: string, maxPerSecond: number): Promise<ThrottleSlot>;
}

export class RedisThrottle implements Throttle {
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
  ) {}

  async reserve(subscriptionId: string, maxPerSecond: number): Promise<ThrottleSlot> {
    const spacingMicros = Math.ceil(1_000_000 / maxPerSecond);
    const reply = (await RESERVE_SLOT.run(this.redis, [`${this.prefix}:webhook-throttle:${subscriptionId}`], [spacingMicros])) as [string, string];
    const slotAt = Number(reply[0]);
    return { slotAt, waitMs: Math.max(0, slotAt - Number(reply[1])) };
  }
}

/**
 * The retry ladder of the contract: the first attempt at once, then 5 fast retries (5, 10, 15, 20,
 * 25 s) and 30 slow ones (1 h each). When the 35th retry fails the subscription is disabled.
 */
export const MAX_ATTEMPTS = 36;

const SECOND = 1000;
const HOUR = 3600 * SECOND;

/** Base delays before retry 1..35 (index 0 = the delay after the first failure). */
export const LADDER_DELAYS_MS: readonly number[] = Object.freeze([
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  20 * SECOND,
  25 * SECOND,
  ...Array.from({ length: 30 }, () => HOUR),
]);

/**
 * Delay before the next attempt after `failedAttempts` failures in the current ladder: 5, 10, 15,
 * 20, 25 s then 30 x 1 h, all multiplied by `scale`; 0 before the first attempt; null once the
 * ladder is exhausted (36 failed attempts). Only the ladder scales: the 200 ms connect and 1 s
 * response limits of an attempt never do.
 */
export function retryDelayMs(failedAttempts: number, scale: number): number | null {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 0) {
    throw new RangeError(`retryDelayMs: failedAttempts must be a non-negative integer, got ${failedAttempts}`);
  }
  if (!Number.isFinite(scale) || scale <= 0) throw new RangeError(`retryDelayMs: scale must be a positive number, got ${scale}`);
  if (failedAttempts === 0) return 0;
  const base = LADDER_DELAYS_MS[failedAttempts - 1];
  if (base === undefined) return null;
  // Whole milliseconds: BullMQ delays and timestamps are integers.
  return Math.round(base * scale);
}

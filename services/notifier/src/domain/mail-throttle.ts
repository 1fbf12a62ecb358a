import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { counterValue, DelayedError, type Job, type RedisConnection } from "@esign/queue";

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

/**
 * MAILS_PER_CUSTOMER_PER_MINUTE: one case file with hundreds of signers, or a burst of creates,
 * must not make the platform a mass mailer (or get its sending domain blocked). Counted in Redis,
 * so every notifier replica counts the same messages. Over the limit a message is held back, never
 * dropped: the job goes back to the queue, delayed to the next window.
 */
export class MailThrottle {
  private readonly limiter: RateLimiterRedis | null;

  constructor(
    private readonly redis: RedisConnection,
    keyPrefix: string,
    perMinute: number,
  ) {
    this.limiter =
      perMinute > 0 ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `${keyPrefix}:rl:mails-customer`, points: perMinute, duration: 60 }) : null;
  }

  /**
   * Throws MailThrottled when the customer's minute is used up, without taking from it: checked
   * before a message's transaction, so that a held-back message costs one Redis read, not a lock,
   * the signer's read and a rollback at every retry (a customer over its limit retries each window).
   */
  async hold(customerId: number): Promise<void> {
    if (!this.limiter) return;
    // Most customers are under their minute: one GET says so; the full read only for the window's end.
    if ((await counterValue(this.redis, this.limiter.getKey(String(customerId)))) < this.limiter.points) return;
    const used = await this.limiter.get(String(customerId));
    if (used && used.consumedPoints >= this.limiter.points) throw new MailThrottled(customerId, Date.now() + Math.max(1000, used.msBeforeNext));
  }

  /** Takes one message of the customer's minute, or throws MailThrottled. */
  async take(customerId: number): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(String(customerId));
    } catch (err) {
      if (err instanceof RateLimiterRes) throw new MailThrottled(customerId, Date.now() + Math.max(1000, err.msBeforeNext));
      throw err;
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

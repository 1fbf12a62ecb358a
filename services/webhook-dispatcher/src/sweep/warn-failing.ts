import { emitEvent, run, runOne, sqlPool, type Db } from "@esign/db";
import type { Logger } from "@esign/logger";
import type { Producer } from "@esign/queue";
import { subscriptionAlertEvent } from "@esign/schema";
import { failingSubscriptionsSql, markFailingWarnedSql } from "./failing-subscriptions.sql";

/** One warning per failing streak: the job id names the streak. */
export const subscriptionFailingJobId = (subscriptionId: string, since: Date): string => `failing-${subscriptionId}-${since.getTime()}`;

/**
 * `webhook.subscription.failing`: for each subscription whose deliveries have failed for `failingAfterMs`
 * with no success since, once per streak, the event (through the outbox, in the transaction that marks
 * the warning) and the owners' mail (notifications/subscription-failing). Before the disable: the
 * ladder's hourly retries go on for a day and more after its first failure.
 */
export async function warnFailingSubscriptions(db: Db, producer: Producer, logger: Logger, failingAfterMs: number, limit: number): Promise<number> {
  const now = new Date();
  const cutoff = now.getTime() - failingAfterMs;
  const candidates = await run(sqlPool(db), failingSubscriptionsSql, { limit, epoch: new Date(0) });
  let warned = 0;
  for (const c of candidates) {
    const since = c.failingSince;
    if (!since || since.getTime() > cutoff) continue;
    if (c.failingNotifiedAt && c.failingNotifiedAt >= since) continue;
    const marked = await db.$transaction(async (tx) => {
      const row = await runOne(tx, markFailingWarnedSql, { subscriptionId: c.id, since, now });
      if (!row) return false;
      await emitEvent(
        tx,
        subscriptionAlertEvent(row.customerId, "webhook.subscription.failing", {
          subscriptionId: c.id,
          endpoint: row.endpoint,
          failingSince: since.toISOString(),
          disabledAt: null,
        }),
      );
      return true;
    });
    if (!marked) continue;
    // After the commit; a lost enqueue loses only the mail (the event is in the outbox).
    await producer.enqueue(
      "notifications",
      "subscription-failing",
      { subscriptionId: c.id, since: since.getTime() },
      { jobId: subscriptionFailingJobId(c.id, since) },
    );
    warned += 1;
    logger.warn("webhook subscription failing: owners warned", { subscriptionId: c.id, failingSince: since.toISOString() });
  }
  return warned;
}

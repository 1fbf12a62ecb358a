import type { Db } from "@esign/db";
import type { Producer } from "@esign/queue";
import { ensureAttemptNow } from "./delivery-jobs";
import { DELIVERY_STATE } from "./delivery-states";

// Bounds the job checks of one call; more overdue deliveries are picked up by the sweeper.
const MAX_JOBS_ENSURED = 1000;

/**
 * Call after re-enabling a subscription (isActive already true): its suspended deliveries start a
 * new ladder now. Returns how many were suspended. Also re-ensures the jobs of deliveries that are
 * pending and due, so calling it again after a failure half-way (Redis away) heals that failure.
 * Does nothing for a subscription that is inactive or deleted.
 */
export async function resumeSubscription(db: Db, producer: Producer, subscriptionId: string): Promise<number> {
  const now = new Date();
  const active = await db.webhookSubscription.count({ where: { id: subscriptionId, isActive: true, deletedAt: null } });
  if (active === 0) return 0;
  const { count } = await db.webhookDelivery.updateMany({
    where: { subscriptionId, state: DELIVERY_STATE.suspended },
    data: { state: DELIVERY_STATE.pending, ladderStep: 0, nextAttemptAt: now },
  });
  const due = await db.webhookDelivery.findMany({
    where: { subscriptionId, state: DELIVERY_STATE.pending, nextAttemptAt: { lte: now } },
    select: { id: true, attempts: true },
    orderBy: { nextAttemptAt: "asc" },
    take: MAX_JOBS_ENSURED,
  });
  for (const d of due) await ensureAttemptNow(producer, d.id, d.attempts + 1);
  return count;
}

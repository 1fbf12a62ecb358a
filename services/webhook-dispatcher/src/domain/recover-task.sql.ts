import { anyOf, defineStatement, isoMicroseconds, qb, type DB, type Expression, type ExpressionBuilder } from "@esign/db";

/*
 * The statements of a recover task (recover-task.ts). Each batch runs in one transaction that first
 * locks the task's row with SKIP LOCKED: a second replica running the same task (a stalled job handed
 * over) skips it instead of putting the same deliveries back twice, and the cursor it then reads is
 * the one the first committed.
 */

const ID = "00000000-0000-4000-8000-000000000000";
const AT = "2026-01-01T00:00:00.000001Z";

/**
 * The task with its subscription's state, or nothing when another transaction holds it. The cursor's
 * time comes back at full precision (a JS Date keeps milliseconds only).
 *
 * Locks: the task's row (FOR UPDATE SKIP LOCKED), until the batch's transaction ends.
 */
export const lockRecoverTaskSql = defineStatement(
  "lock-webhook-recover-task",
  { taskId: ID },
  ({ taskId }) =>
    qb
      .selectFrom("WebhookRecoverTask as t")
      .innerJoin("WebhookSubscription as s", "s.id", "t.subscriptionId")
      .select((eb) => [
        "t.id",
        "t.subscriptionId",
        "t.since",
        "t.until",
        "t.includeAll",
        "t.state",
        "t.total",
        "t.queued",
        eb.cast<string>("t.cursorId", "text").as("cursorId"),
        isoMicroseconds(eb.ref("t.cursorCreatedAt") as Expression<Date>).as("cursorAt"),
        "s.isActive",
        "s.deletedAt",
      ])
      .where("t.id", "=", taskId)
      .forUpdate("t")
      .skipLocked(),
  { reuse: "shape" },
);

interface Window {
  subscriptionId: string;
  since: Date;
  until: Date;
  includeAll: boolean;
}

/** Deliveries of the window that the task recovers: those that failed (any attempt of the current ladder failed, or it ended failed), or all. */
function inWindow(eb: ExpressionBuilder<{ d: DB["WebhookDelivery"] }, "d">, w: Window) {
  const conditions = [eb("d.subscriptionId", "=", w.subscriptionId), eb("d.createdAt", ">=", w.since), eb("d.createdAt", "<", w.until)];
  if (!w.includeAll) {
    conditions.push(eb.or([eb("d.state", "in", ["exhausted", "suspended"]), eb.and([eb("d.state", "=", "pending"), eb("d.ladderStep", ">", 0)])]));
  }
  return eb.and(conditions);
}

/**
 * How many deliveries the task will put back (its `total`), counted when it starts.
 *
 * Locks: nothing.
 */
export const countRecoverableSql = defineStatement(
  "count-recoverable-deliveries",
  { subscriptionId: ID, since: new Date(0), until: new Date(0), includeAll: false },
  (w) =>
    qb
      .selectFrom("WebhookDelivery as d")
      .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("count"))
      .where((eb) => inWindow(eb, w)),
);

/**
 * The next batch of the window after the cursor, in (createdAt, id) order, with each one's position.
 *
 * Locks: the deliveries' rows (FOR UPDATE), until the batch's transaction ends: an attempt recorded
 * meanwhile waits, then sees the reset.
 */
export const recoverBatchSql = defineStatement(
  "webhook-recover-batch",
  {
    subscriptionId: ID,
    since: new Date(0),
    until: new Date(0),
    includeAll: false,
    after: { at: AT, id: ID } as { at: string; id: string } | undefined,
    limit: 500,
  },
  ({ after, limit, ...w }) =>
    qb
      .selectFrom("WebhookDelivery as d")
      .select((eb) => [eb.cast<string>("d.id", "text").as("id"), isoMicroseconds(eb.ref("d.createdAt")).as("position")])
      .where((eb) => inWindow(eb, w))
      .$if(after !== undefined, (q) =>
        q.where((eb) => {
          const at = eb.cast<Date>(eb.val(after!.at), "timestamptz");
          return eb.or([eb("d.createdAt", ">", at), eb.and([eb("d.createdAt", "=", at), eb("d.id", ">", after!.id)])]);
        }),
      )
      .orderBy("d.createdAt")
      .orderBy("d.id")
      .limit(limit)
      .forUpdate(),
);

/**
 * Puts deliveries back on a new ladder now, as a redelivery does (same event, same X-Event-Id, the
 * next attempt number of the log); returns what their attempts' jobs need.
 *
 * Locks: the deliveries' rows (already held by recoverBatchSql).
 */
export const requeueDeliveriesSql = defineStatement(
  "webhook-recover-requeue",
  { deliveryIds: [ID] as readonly string[], now: new Date(0) },
  ({ deliveryIds, now }) =>
    qb
      .updateTable("WebhookDelivery")
      .set({ state: "pending", ladderStep: 0, nextAttemptAt: now, updatedAt: now })
      .where("id", "=", anyOf(deliveryIds, "uuid"))
      .returning((eb) => [eb.cast<string>("id", "text").as("id"), "attempts"]),
  { reuse: "shape" },
);

/**
 * Records a batch: the count, the cursor (the batch's last position) and, for the last batch, the
 * end. `total` is set by the first batch.
 *
 * Locks: the task's row (already held by lockRecoverTaskSql).
 */
export const advanceRecoverTaskSql = defineStatement(
  "advance-webhook-recover-task",
  {
    taskId: ID,
    state: "running",
    total: 0 as number | null,
    queuedMore: 0,
    cursor: { at: AT, id: ID } as { at: string; id: string } | undefined,
    finishedAt: new Date(0) as Date | null,
    now: new Date(0),
  },
  ({ taskId, state, total, queuedMore, cursor, finishedAt, now }) =>
    qb
      .updateTable("WebhookRecoverTask")
      .set((eb) => ({
        state,
        total: eb.fn.coalesce("total", eb.val(total)),
        queued: eb("queued", "+", queuedMore),
        finishedAt,
        updatedAt: now,
        ...(cursor ? { cursorCreatedAt: eb.cast<Date>(eb.val(cursor.at), "timestamptz"), cursorId: cursor.id } : {}),
      }))
      .where("id", "=", taskId),
);

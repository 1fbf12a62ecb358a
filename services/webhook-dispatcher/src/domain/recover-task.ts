import { run, runOne } from "@esign/db";
import { ensureAttemptNow, RECOVER_STATE } from "@esign/webhooks";
import type { DispatcherContext } from "../context";
import { advanceRecoverTaskSql, countRecoverableSql, lockRecoverTaskSql, recoverBatchSql, requeueDeliveriesSql } from "./recover-task.sql";

type BatchOutcome =
  /** Another transaction holds the task (a second replica): it goes on from where it is. */
  { kind: "busy" } | { kind: "finished"; state: string } | { kind: "batch"; requeued: { id: string; attempts: number }[]; last: boolean };

/**
 * One batch of a recover task, in one transaction: the task's row locked (SKIP LOCKED), the next
 * deliveries of its window after the cursor put back on a new ladder, the cursor and counts moved on.
 * A task whose subscription was disabled or deleted meanwhile is cancelled rather than run.
 */
async function runBatch(ctx: DispatcherContext, taskId: string, batchSize: number): Promise<BatchOutcome> {
  return ctx.db.$transaction(async (tx) => {
    const task = await runOne(tx, lockRecoverTaskSql, { taskId });
    if (!task) return { kind: "busy" } as const;
    const now = new Date();
    if (task.state === RECOVER_STATE.completed || task.state === RECOVER_STATE.cancelled) return { kind: "finished", state: task.state } as const;
    if (!task.isActive || task.deletedAt) {
      await run(tx, advanceRecoverTaskSql, { taskId, state: RECOVER_STATE.cancelled, total: null, queuedMore: 0, cursor: undefined, finishedAt: now, now });
      return { kind: "finished", state: RECOVER_STATE.cancelled } as const;
    }
    const window = { subscriptionId: task.subscriptionId, since: task.since, until: task.until, includeAll: task.includeAll };
    const total = task.total ?? (await runOne(tx, countRecoverableSql, window))?.count ?? 0;
    const after = task.cursorAt && task.cursorId ? { at: task.cursorAt, id: task.cursorId } : undefined;
    const batch = await run(tx, recoverBatchSql, { ...window, after, limit: batchSize });
    const requeued = batch.length > 0 ? await run(tx, requeueDeliveriesSql, { deliveryIds: batch.map((d) => d.id), now }) : [];
    const lastRow = batch.at(-1);
    const last = batch.length < batchSize;
    await run(tx, advanceRecoverTaskSql, {
      taskId,
      state: last ? RECOVER_STATE.completed : RECOVER_STATE.running,
      total,
      queuedMore: requeued.length,
      cursor: lastRow ? { at: lastRow.position, id: lastRow.id } : undefined,
      finishedAt: last ? now : null,
      now,
    });
    return { kind: "batch", requeued, last } as const;
  });
}

/**
 * webhooks/recover: puts every delivery of the task's window back on a new ladder, each once, batch
 * by batch (WEBHOOK_RECOVER_BATCH_SIZE, WEBHOOK_RECOVER_BATCH_PAUSE_MS between them so live traffic
 * keeps flowing). Their events keep their X-Event-Id; the attempts are then made like any other
 * (throttle and ordering included). A job that dies half-way is run again from the committed cursor;
 * jobs whose enqueue failed after a commit are found by the sweeper (pending and overdue).
 */
export async function runRecoverTask(ctx: DispatcherContext, taskId: string): Promise<void> {
  const log = ctx.logger.child({ recoverTaskId: taskId });
  let requeuedTotal = 0;
  for (;;) {
    const outcome = await runBatch(ctx, taskId, ctx.config.WEBHOOK_RECOVER_BATCH_SIZE);
    if (outcome.kind === "busy") return void log.info("recover task held by another run; left to it", { requeued: requeuedTotal });
    if (outcome.kind === "finished") return void log.info("recover task finished", { state: outcome.state, requeued: requeuedTotal });
    // After the commit: the attempts' jobs (a delayed retry of a pending one is promoted).
    for (const d of outcome.requeued) await ensureAttemptNow(ctx.producer, d.id, d.attempts + 1);
    requeuedTotal += outcome.requeued.length;
    if (outcome.last) return void log.info("recover task completed", { requeued: requeuedTotal });
    log.debug("recover batch queued", { requeued: outcome.requeued.length });
    await new Promise((r) => setTimeout(r, ctx.config.WEBHOOK_RECOVER_BATCH_PAUSE_MS));
  }
}

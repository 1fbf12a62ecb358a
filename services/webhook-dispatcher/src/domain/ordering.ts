import { run, runOne, sqlPool } from "@esign/db";
import { ensureAttemptNow } from "@esign/webhooks";
import type { DispatcherContext } from "../context";
import type { AttemptRow } from "./attempt-rows";
import { holdIfEarlierPendingSql, orphanedHeldDeliveriesSql, releaseNextOfCaseFileSql } from "./ordering.sql";

/** Whether the delivery takes part in ordering: an ordered subscription and an event about a case file. */
export const isOrdered = (row: AttemptRow): row is AttemptRow & { caseFileId: number } => row.ordered && row.caseFileId !== null;

/**
 * True when the attempt must wait: an earlier event of its case file is still pending for the
 * subscription. The delivery is then held (no time, no job) until that one ends and releases it.
 * Only the case file's own events wait; every other case file flows.
 */
export async function holdBehindEarlier(ctx: DispatcherContext, row: AttemptRow, attempt: number): Promise<boolean> {
  if (!isOrdered(row)) return false;
  const held = await runOne(sqlPool(ctx.db), holdIfEarlierPendingSql, {
    deliveryId: row.deliveryId,
    eventId: row.eventId,
    attempts: attempt - 1,
    now: new Date(),
  });
  return held !== undefined;
}

/** After an ordered delivery ended: the next one of its case file goes now (its attempt's job ensured). */
export async function releaseNext(ctx: Pick<DispatcherContext, "db" | "producer">, subscriptionId: string, caseFileId: number): Promise<string | undefined> {
  const next = await runOne(sqlPool(ctx.db), releaseNextOfCaseFileSql, { subscriptionId, caseFileId, now: new Date() });
  if (!next) return undefined;
  await ensureAttemptNow(ctx.producer, next.id, next.attempts + 1);
  return next.id;
}

/** For the sweeper: releases held deliveries whose release was lost (a crash between record and follow-up). */
export async function releaseOrphanedHeld(ctx: Pick<DispatcherContext, "db" | "producer">, limit: number): Promise<number> {
  const orphans = await run(sqlPool(ctx.db), orphanedHeldDeliveriesSql, { limit });
  let released = 0;
  for (const o of orphans) if (o.caseFileId !== null && (await releaseNext(ctx, o.subscriptionId, o.caseFileId))) released += 1;
  return released;
}

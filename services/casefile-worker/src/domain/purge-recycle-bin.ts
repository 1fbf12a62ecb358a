import { lockCaseFileRow, run, runOne } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";
import type { WorkerContext } from "../context";
import {
  deleteEventsSql,
  documentFilesSql,
  dueForPurgeSql,
  fileReferencedSql,
  purgeCaseFileSql,
  relayedEventsOfSql,
  signatureImagesSql,
} from "./purge-recycle-bin.sql";

const BATCH = 100;
/** At most this many per run (the run is hourly): a backlog is worked off over the next runs. */
const MAX_PER_RUN = 2_000;

/**
 * One case file out of the recycle bin for good, in one transaction: locked first (the order of
 * every writer), and only while it is still the deletion that was found (`deletedAt` unchanged: a
 * restore and a delete again start a new period). Answers the stored files it named, or undefined
 * when it was not purged.
 */
async function purgeOne(ctx: WorkerContext, id: number, deletedAt: Date): Promise<string[] | undefined> {
  return ctx.db.$transaction(async (tx) => {
    const cf = await runOne(tx, lockCaseFileRow, { id, customerId: undefined });
    if (!cf || cf.status !== CASEFILE_STATUS.deleted || cf.deletedAt?.getTime() !== deletedAt.getTime()) return undefined;
    const documents = await run(tx, documentFilesSql, { caseFileId: id });
    const images = await run(tx, signatureImagesSql, { caseFileId: id });
    const files = [...documents.flatMap((d) => [d.fileSha256, d.signedSha256]), ...images.map((s) => s.signatureValue)].filter(
      (f): f is string => typeof f === "string" && /^[0-9a-f]{64}$/.test(f),
    );
    const events = await run(tx, relayedEventsOfSql, { customerId: cf.customerId, caseFileId: id, since: cf.createdAt });
    if (events.length > 0) await run(tx, deleteEventsSql, { eventIds: events.map((e) => e.id) });
    const purged = await run(tx, purgeCaseFileSql, { caseFileId: id, creationJobId: cf.creationJobId });
    return purged.length > 0 ? [...new Set(files)] : undefined;
  });
}

/**
 * The recycle bin's purge (hourly, with purge-jobs): every case file deleted longer ago than its
 * customer's recycleBinDays goes for good, with its documents' files, signature images, log entries,
 * signers and links, and its relayed events. Storage is content-addressed: a file is deleted only
 * after the commit and only when nothing names it any more (another document with the same bytes,
 * a creation job). A create of those very bytes racing the delete could still lose its upload; its
 * job then fails with "missing from storage" and the client sends it again.
 */
export async function purgeRecycleBin(ctx: WorkerContext): Promise<number> {
  let purged = 0;
  while (purged < MAX_PER_RUN) {
    const due = await run(ctx.db, dueForPurgeSql, { limit: BATCH });
    let progressed = 0;
    for (const { id, deletedAt } of due) {
      if (!deletedAt) continue;
      const files = await purgeOne(ctx, id, deletedAt);
      if (!files) continue;
      progressed++;
      for (const sha256 of files) {
        const referenced = (await runOne(ctx.db, fileReferencedSql, { sha256 }))?.referenced;
        if (!referenced) await ctx.storage.remove(sha256);
      }
    }
    purged += progressed;
    if (due.length < BATCH || progressed === 0) break;
  }
  if (purged > 0) ctx.logger.info("purged case files from the recycle bin", { count: purged });
  return purged;
}

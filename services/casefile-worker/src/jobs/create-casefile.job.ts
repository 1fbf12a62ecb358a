import { randomUUID } from "node:crypto";
import type { Job } from "@esign/queue";
import { ZCaseFile, ZStoredFiles, type JobData } from "@esign/schema";
import type { WorkerContext } from "../context";
import { AccountCheckFailed, checkAccount } from "../domain/account-checks";
import { persistCaseFile } from "../domain/persist-casefile";
import { ensureCreatedScheduled } from "../domain/schedule-send";

async function markFailed(ctx: WorkerContext, id: string, errorMessage: string, retries: number): Promise<void> {
  // Only a job that has not completed can fail: a late duplicate must not overwrite a success.
  await ctx.db.creationJob.updateMany({ where: { id, status: { in: ["pending", "processing"] } }, data: { status: "failed", errorMessage, retries } });
}

/**
 * casefile/create: turns a stored creation job into a case file, exactly once. A worker that dies
 * mid-job leaves the BullMQ job stalled; the next worker re-runs it, and the row lock plus the status
 * check inside the transaction make the second run a no-op if the first one committed.
 */
export async function createCaseFileJob(ctx: WorkerContext, data: JobData<"casefile", "create">, job: Job): Promise<void> {
  const id = data.creationJobId;
  const log = ctx.logger.child({ jobId: id });
  const row = await ctx.db.creationJob.findUnique({ where: { id }, include: { customer: true } });
  if (!row) return void log.warn("creation job not found (purged?)");
  if (row.status === "completed") return ensureCreatedScheduled(ctx, id);
  if (row.status === "failed") return;

  const retries = job.attemptsMade;
  await ctx.db.creationJob.update({ where: { id }, data: { status: "processing", retries } });

  const caseFile = ZCaseFile.safeParse(row.payload);
  const files = ZStoredFiles.safeParse(row.files);
  if (!caseFile.success || !files.success) return markFailed(ctx, id, "The stored case file payload could not be read", retries);

  try {
    checkAccount(row.customer, caseFile.data);
    for (const f of files.data) {
      if (!(await ctx.storage.exists(f.sha256))) throw new AccountCheckFailed(`Uploaded file "${f.name}" is missing from storage`);
    }
    const persisted = await ctx.db.$transaction(
      async (tx) => {
        const locked = await tx.$queryRaw<{ status: string }[]>`SELECT status::text FROM "CreationJob" WHERE id = ${id}::uuid FOR UPDATE`;
        if (locked[0]?.status !== "processing" && locked[0]?.status !== "pending") return null;
        const p = await persistCaseFile(tx, row, row.customer, caseFile.data, files.data, {
          publicBaseUrl: ctx.config.PUBLIC_BASE_URL,
          encryptionKey: ctx.config.ENCRYPTION_KEY,
          now: new Date(),
        });
        await tx.creationJob.update({ where: { id }, data: { status: "completed", result: p.result, errorMessage: null, retries } });
        return p;
      },
      { timeout: 30_000 },
    );
    if (persisted) {
      log.info("case file created", { caseFileId: persisted.caseFileId, status: persisted.status });
      await ensureCreatedScheduled(ctx, id, persisted.created);
    }
  } catch (err) {
    if (err instanceof AccountCheckFailed) {
      log.info("creation job failed an account check", { reason: err.message });
      return markFailed(ctx, id, err.message, retries);
    }
    const attempts = job.opts.attempts ?? 1;
    if (job.attemptsMade + 1 >= attempts) {
      const errorId = randomUUID();
      log.error("creation job failed on its last attempt", { errorId, err });
      await markFailed(ctx, id, `Internal error while creating the case file (errorId ${errorId})`, retries + 1);
    }
    throw err;
  }
}

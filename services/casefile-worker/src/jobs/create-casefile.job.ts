import { randomUUID } from "node:crypto";
import { decryptSecret, run, runOne, sqlPool } from "@esign/db";
import { isDependencyUnavailable } from "@esign/errors";
import { publishCommittedEvents } from "@esign/outbox-relay";
import type { Job } from "@esign/queue";
import { openPayloadIds, ZCaseFile, ZStoredFiles, type JobData } from "@esign/schema";
import type { WorkerContext } from "../context";
import { AccountCheckFailed, checkAccount, type AccountSettings } from "../domain/account-checks";
import { persistCaseFile, type Persisted } from "../domain/persist-casefile";
import { createdJobsOf, ensureCreatedScheduled } from "../domain/schedule-send";
import { claimCreationJobSql, finishCreationJobSql } from "./create-casefile.sql";

async function markFailed(ctx: WorkerContext, id: string, errorMessage: string, retries: number): Promise<void> {
  // Only a job that has not completed can fail: a late duplicate must not overwrite a success.
  await run(sqlPool(ctx.db), finishCreationJobSql, { id, status: "failed", errorMessage, retries });
}

interface ClaimedJob extends AccountSettings {
  /** The status before this run (a pending or processing job is now processing). */
  status: string;
  customerId: number;
  userId: number;
  payload: unknown;
  files: unknown;
  /** An earlier live job of the same customer with the same payloadHash, inside the duplicate window. */
  duplicateOf: string | null;
  /** Drawn for a job still to be done: its case file's id, and one id per signer of its payload, ascending. */
  caseFileId: number | null;
  signerIds: number[] | null;
}

/**
 * Reads the job with its customer's settings and marks it processing (unless it is done), in one
 * statement. It also looks for the job this one repeats (Penneo's `aborted_duplicated`): an earlier
 * job - by creation time, then id, so of two racing duplicates exactly the later one is aborted - of
 * the same customer with the same payloadHash inside the window that has not failed. A job sent
 * with an Idempotency-Key is never a duplicate: its client said itself what a repeat is.
 */
async function claimCreationJob(ctx: WorkerContext, id: string, retries: number): Promise<ClaimedJob | undefined> {
  const row = await runOne(sqlPool(ctx.db), claimCreationJobSql, { id, retries, duplicateWindowSeconds: ctx.config.DUPLICATE_SUBMISSION_WINDOW_SECONDS });
  return (
    row && {
      ...row,
      secureSigningMethods: row.secureSigningMethods as AccountSettings["secureSigningMethods"],
      caseFileId: row.caseFileId === null ? null : Number(row.caseFileId),
      signerIds: row.signerIds === null ? null : row.signerIds.map(Number).sort((a, b) => a - b),
    }
  );
}

/** The stored payload with its national ids opened again (undefined, so unreadable, when a key is missing). */
function openStoredPayload(ctx: WorkerContext, payload: unknown): unknown {
  try {
    return openPayloadIds(payload, (enc) => decryptSecret(enc, ctx.config.ENCRYPTION_KEYRING));
  } catch {
    return undefined;
  }
}

async function markDuplicate(ctx: WorkerContext, id: string, duplicateOf: string, retries: number): Promise<void> {
  const errorMessage =
    `Aborted: the same case file (same payloadHash) was submitted as job ${duplicateOf} less than ` +
    `${ctx.config.DUPLICATE_SUBMISSION_WINDOW_SECONDS} s earlier; no case file was created for this job. ` +
    "Send an Idempotency-Key header to tell repeats apart yourself.";
  await run(sqlPool(ctx.db), finishCreationJobSql, { id, status: "aborted_duplicated", errorMessage, retries });
}

/**
 * The committed case file's events (its signing requests) that no subscription wants, published by
 * the job itself: no relay wake-up or claim, one round trip to mark them relayed
 * (publishCommittedEvents); the relay, NOTIFYed by the persist, takes those a subscription wants.
 * The case file's delayed jobs (its send at sendAt, its timers) go in the same Redis pipeline: one
 * round trip, not two. A failure leaves the events to the outbox relay's poll, never fails the job
 * for them (the case file is committed); the delayed jobs are then added on their own, and if that
 * fails too the job fails and its retry adds them (their ids are deterministic).
 */
async function publishEventsAndTimers(ctx: WorkerContext, id: string, persisted: Persisted, log: WorkerContext["logger"]): Promise<void> {
  try {
    await publishCommittedEvents(ctx.db, ctx.producer, persisted.events, ctx.mailThrottle, createdJobsOf(persisted.created));
  } catch (err) {
    log.warn("could not publish the case file's events; the outbox relay will", { caseFileId: persisted.caseFileId, err });
    await ensureCreatedScheduled(ctx, id, persisted.created);
  }
}

/**
 * casefile/create: turns a stored creation job into a case file, exactly once. A worker that dies
 * mid-job leaves the BullMQ job stalled; the next worker re-runs it, and the case file's statement
 * writes only while the job is pending or processing (taking the job's row lock, so a second run
 * waits for the first and then writes nothing). The common path is three round trips: the claim
 * (which draws the ids), the case file's one statement, the mark of its published events; every
 * statement is typed SQL on Prisma's pool.
 */
export async function createCaseFileJob(ctx: WorkerContext, data: JobData<"casefile", "create">, job: Job): Promise<void> {
  const id = data.creationJobId;
  const log = ctx.logger.child({ jobId: id });
  const retries = job.attemptsMade;
  const row = await claimCreationJob(ctx, id, retries);
  if (!row) return void log.warn("creation job not found (purged?)");
  if (row.status === "completed") return ensureCreatedScheduled(ctx, id);
  if (row.status === "failed" || row.status === "aborted_duplicated") return;
  if (row.duplicateOf !== null) {
    log.info("creation job repeats an earlier one; aborted", { duplicateOf: row.duplicateOf });
    return markDuplicate(ctx, id, row.duplicateOf, retries);
  }

  const caseFile = ZCaseFile.safeParse(openStoredPayload(ctx, row.payload));
  const files = ZStoredFiles.safeParse(row.files);
  if (!caseFile.success || !files.success) return markFailed(ctx, id, "The stored case file payload could not be read", retries);

  try {
    checkAccount(row, caseFile.data);
    // Looked up together (with S3 storage each is a request); the first missing one, in upload order, is named.
    const present = await Promise.all(files.data.map((f) => ctx.storage.exists(f.sha256)));
    const missing = files.data.find((_, i) => !present[i]);
    if (missing) throw new AccountCheckFailed(`Uploaded file "${missing.name}" is missing from storage`);
    if (row.caseFileId === null || row.signerIds === null) throw new Error("the claim drew no ids for a job still to be done");
    const target = { id, customerId: row.customerId, userId: row.userId, retries, caseFileId: row.caseFileId, signerIds: row.signerIds };
    // One autocommit statement; null when another run of the job finished it meanwhile.
    const persisted = await persistCaseFile(sqlPool(ctx.db), target, row, caseFile.data, files.data, {
      publicBaseUrl: ctx.config.PUBLIC_BASE_URL,
      encryptionKey: ctx.config.ENCRYPTION_KEY,
      now: new Date(),
    });
    if (persisted) {
      log.info("case file created", { caseFileId: persisted.caseFileId, status: persisted.status });
      await publishEventsAndTimers(ctx, id, persisted, log);
    }
  } catch (err) {
    if (err instanceof AccountCheckFailed) {
      log.info("creation job failed an account check", { reason: err.message });
      return markFailed(ctx, id, err.message, retries);
    }
    // PostgreSQL away is no fault of the job: startWorker puts it back without using an attempt.
    if (isDependencyUnavailable(err)) throw err;
    const attempts = job.opts.attempts ?? 1;
    if (job.attemptsMade + 1 >= attempts) {
      const errorId = randomUUID();
      log.error("creation job failed on its last attempt", { errorId, err });
      await markFailed(ctx, id, `Internal error while creating the case file (errorId ${errorId})`, retries + 1);
    }
    throw err;
  }
}

import { Router } from "express";
import { z } from "zod";
import { decryptSecret, type Keyring, type CreationJob } from "@esign/db";
import { AppError } from "@esign/errors";
import { ZSigningLinkItem, ZStoredJobResult } from "@esign/schema";
import type { GatewayContext } from "../context";
import { abuseLimits, addressOf } from "../http/abuse-limits";
import { serve } from "../contract/serve";
import { jobRoutes } from "./job-contracts";
import type { JobResult } from "./job-status-schemas";

const notFound = () => new AppError("not_found", "Job not found");

function presentResult(job: CreationJob, encryptionKey: Keyring): JobResult | null {
  if (job.status !== "completed" || job.result === null) return null;
  const stored = ZStoredJobResult.parse(job.result);
  const signingLinks = z.array(ZSigningLinkItem).parse(JSON.parse(decryptSecret(stored.signingLinksEnc, encryptionKey)));
  // The stored status is one of CASEFILE_STATUS (the worker writes it from the constants).
  return { data: { caseFile: { id: stored.caseFile.id, status: stored.caseFile.status as JobResult["data"]["caseFile"]["status"] }, signingLinks } };
}

export function jobStatusRouter(ctx: GatewayContext): Router {
  const router = Router();
  const perMinute = ctx.config.JOB_POLL_LIMIT_PER_MINUTE;
  // Penneo: "rate limited to 20 requests per minute per submission"; and a customer's jobs together
  // are bounded too. A read of a row the pair already proves a right to: when Redis is away the poll
  // is counted in memory (rate-limit.ts).
  const limits = abuseLimits(ctx);

  serve(router, jobRoutes(ctx.config).getJobStatus, async ({ body: { uuid, payloadHash } }, req, res) => {
    // Per address, before the query: all polls, and nothing more once it has asked for too many unknown jobs.
    const address = addressOf(req);
    await limits.pollFailuresByAddress.assertUnder(address, "Too many polls for unknown jobs from this address; try again later");
    await limits.pollsByAddress.consume(res, address, "Too many job polls from this address; slow down");
    const retentionMs = ctx.config.JOB_RETENTION_DAYS * 24 * 3600 * 1000;
    const job = await ctx.db.creationJob.findUnique({ where: { id: uuid } });
    // Retention is enforced here as well as by the purge, so a record is never visible past 14 days.
    if (!job || job.payloadHash !== payloadHash.toLowerCase() || Date.now() - job.createdAt.getTime() > retentionMs) {
      await limits.pollFailuresByAddress.recordFailure(address);
      throw notFound();
    }
    // Counted only for a real job: guessing pairs fills no counters.
    await limits.pollsByCustomer.consume(res, String(job.customerId), "Too many job polls for this account; slow down");
    await limits.pollsByJob.consume(res, job.id, `Poll this job at most ${perMinute} times a minute`);
    res.json({
      uuid: job.id,
      type: "casefile_creation",
      jobStatus: job.status,
      result: presentResult(job, ctx.config.ENCRYPTION_KEYRING),
      payloadHash: job.payloadHash,
      errorMessage: job.errorMessage,
      retries: job.retries,
      maxRetries: job.maxRetries,
      createdAt: job.createdAt.toISOString(),
      updatedAt: job.updatedAt.toISOString(),
    });
  });
  return router;
}

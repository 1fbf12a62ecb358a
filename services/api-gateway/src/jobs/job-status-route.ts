import { Router } from "express";
import { z } from "zod";
import { decryptSecret, type CreationJob } from "@esign/db";
import { AppError } from "@esign/errors";
import { ZSigningLinkItem, ZStoredJobResult } from "@esign/schema";
import type { GatewayContext } from "../context";
import { zodIssues } from "../http/zod-issues";

export const JOB_STATUS_PATH = "/send/api/v1/queue/public/status";

export const ZStatusRequest = z.object({ uuid: z.uuid(), payloadHash: z.string().regex(/^[0-9a-f]{64}$/i) });

const notFound = () => new AppError("not_found", "Job not found");

function presentResult(job: CreationJob, encryptionKey: string) {
  if (job.status !== "completed" || job.result === null) return null;
  const stored = ZStoredJobResult.parse(job.result);
  const signingLinks = z.array(ZSigningLinkItem).parse(JSON.parse(decryptSecret(stored.signingLinksEnc, encryptionKey)));
  return { caseFile: stored.caseFile, signingLinks };
}

export function jobStatusRouter(ctx: GatewayContext): Router {
  const router = Router();
  router.post(JOB_STATUS_PATH, async (req, res) => {
    const parsed = ZStatusRequest.safeParse(req.body);
    if (!parsed.success) throw new AppError("validation_failed", "uuid and payloadHash are required", zodIssues(parsed.error));
    const { uuid, payloadHash } = parsed.data;
    const retentionMs = ctx.config.JOB_RETENTION_DAYS * 24 * 3600 * 1000;
    const job = await ctx.db.creationJob.findUnique({ where: { id: uuid } });
    // Retention is enforced here as well as by the purge, so a record is never visible past 14 days.
    if (!job || job.payloadHash !== payloadHash.toLowerCase() || Date.now() - job.createdAt.getTime() > retentionMs) {
      throw notFound();
    }
    // Claim this poll atomically: concurrent pollers (or replicas) cannot both get an answer inside the window.
    const interval = ctx.config.JOB_POLL_INTERVAL_MS;
    const claimed = await ctx.db.$executeRaw`
      UPDATE "CreationJob" SET "lastPolledAt" = now()
      WHERE id = ${uuid}::uuid
        AND ("lastPolledAt" IS NULL OR "lastPolledAt" <= now() - make_interval(secs => ${interval / 1000}))`;
    if (claimed === 0) {
      const fresh = await ctx.db.creationJob.findUnique({ where: { id: uuid }, select: { lastPolledAt: true } });
      const since = fresh?.lastPolledAt ? Date.now() - fresh.lastPolledAt.getTime() : 0;
      const retryAfter = Math.max(1, Math.ceil((interval - since) / 1000));
      throw new AppError("too_many_requests", `Poll this job no more often than every ${interval / 1000} seconds`, undefined, {
        "Retry-After": String(retryAfter),
      });
    }
    res.json({
      uuid: job.id,
      type: "casefile_creation",
      jobStatus: job.status,
      result: presentResult(job, ctx.config.ENCRYPTION_KEY),
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

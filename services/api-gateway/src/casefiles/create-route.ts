import { randomUUID } from "node:crypto";
import { Router, type Request } from "express";
import { AppError, type FieldIssue } from "@esign/errors";
import { sqlPool } from "@esign/db";
import { validateCreateRequest } from "@esign/schema";
import { looksLikePdf } from "@esign/storage";
import type { GatewayContext } from "../context";
import { authenticate, principalOf } from "../auth/authenticate";
import { createUploadMiddleware, FILE_FIELDS } from "./upload-middleware";
import type { StagedUpload } from "./staging-storage-engine";
import { payloadHash } from "./payload-hash";
import { enqueueCreationJob } from "./enqueue-creation-job";

export const CREATE_PATH = "/send/api/v1/casefiles/20251022/create";

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

interface JobRef {
  id: string;
  payloadHash: string;
  createdAt: Date;
}

const created = (job: JobRef) => ({
  status: "handled",
  message: "Job created",
  jobs: [{ uuid: job.id, payloadHash: job.payloadHash, createdAt: job.createdAt.toISOString() }],
});

function uploadsOf(req: Request): StagedUpload[] {
  const files = req.files as Record<string, StagedUpload[]> | undefined;
  return FILE_FIELDS.flatMap((name) => files?.[name] ?? []);
}

/** Every problem with the parts themselves, before the payload rules run. */
function partIssues(body: Record<string, unknown>, uploads: StagedUpload[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const key of Object.keys(body)) {
    if (key !== "data") issues.push({ path: key, code: "unexpected_field", message: `unknown part "${key}"; expected "data" and "files"` });
  }
  if (body.data === undefined) issues.push({ path: "data", code: "required", message: "the data part (a JSON string) is required" });
  else if (typeof body.data !== "string") issues.push({ path: "data", code: "invalid_type", message: "data must be sent once, as a string" });
  if (uploads.length === 0) issues.push({ path: "files", code: "required", message: "at least one file part is required" });
  uploads.forEach((f, i) => {
    if (f.staged.size === 0) issues.push({ path: `files[${i}]`, code: "empty_file", message: `"${f.originalname}" is empty` });
    else if (!looksLikePdf(f.staged.head, f.staged.tail)) {
      issues.push({ path: `files[${i}]`, code: "not_pdf", message: `"${f.originalname}" is not a PDF (checked by content)` });
    }
  });
  return issues;
}

export function createCaseFileRouter(ctx: GatewayContext): Router {
  const router = Router();
  const upload = createUploadMiddleware(ctx.config, ctx.storage);

  const requireMultipart = (req: Request) => {
    if (!req.is("multipart/form-data")) throw new AppError("unsupported_media_type", "The request must be multipart/form-data");
  };

  router.post(CREATE_PATH, authenticate(ctx.config, "x-auth-token"), (req, _res, next) => {
    requireMultipart(req);
    next();
  }, upload, async (req, res) => {
    const principal = principalOf(res);
    const uploads = uploadsOf(req);
    const committed = new Set<StagedUpload>();
    try {
      const key = req.header("idempotency-key");
      if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
        throw new AppError("validation_failed", "Invalid Idempotency-Key", [
          { path: "Idempotency-Key", code: "invalid_format", message: "1 to 255 visible ASCII characters" },
        ]);
      }
      const body = (req.body ?? {}) as Record<string, unknown>;
      const issues = partIssues(body, uploads);
      const data = typeof body.data === "string" ? body.data : undefined;
      const validation = data === undefined ? undefined : validateCreateRequest(data, uploads.map((u) => u.originalname));
      if (validation && !validation.ok) {
        // The part checks and the payload rules both report a missing file part: list it once.
        const seen = new Set(issues.map((i) => `${i.path}\u0000${i.code}`));
        issues.push(...validation.errors.filter((e) => !seen.has(`${e.path}\u0000${e.code}`)));
      }
      if (issues.length > 0 || !validation?.ok || data === undefined) {
        throw new AppError("validation_failed", "The case file request is invalid", issues);
      }

      const files = uploads.map((u) => ({ name: u.originalname, sha256: u.staged.sha256, size: u.staged.size }));
      const hash = payloadHash(data, files);

      if (key !== undefined) {
        const previous = await ctx.db.creationJob.findUnique({
          where: { customerId_idempotencyKey: { customerId: principal.customerId, idempotencyKey: key } },
        });
        if (previous) return res.status(201).json(replay(previous, hash));
      }

      // Together: each commit is a rename on the thread pool, and one after the other they were two
      // more waits in the event loop's queue on every request's path (the p99 under load).
      // All settled before a failure is thrown, so the clean-up below never races a rename.
      const commits = await Promise.allSettled(
        uploads.map(async (u) => {
          await ctx.storage.commit(u.staged);
          committed.add(u);
        }),
      );
      const failedCommit = commits.find((c) => c.status === "rejected");
      if (failedCommit) throw failedCommit.reason;
      const id = randomUUID();
      let job: JobRef;
      try {
        job = await insertCreationJob(ctx, {
          id,
          customerId: principal.customerId,
          userId: principal.userId,
          payloadHash: hash,
          idempotencyKey: key ?? null,
          payload: validation.value.caseFile,
          files,
          maxRetries: ctx.config.CREATE_JOB_MAX_ATTEMPTS,
        });
      } catch (err) {
        // Two requests with the same key raced: the loser answers like a replay.
        if (key !== undefined && isUniqueViolation(err)) {
          const winner = await ctx.db.creationJob.findUniqueOrThrow({
            where: { customerId_idempotencyKey: { customerId: principal.customerId, idempotencyKey: key } },
          });
          return res.status(201).json(replay(winner, hash));
        }
        throw err;
      }
      await enqueueCreationJob(ctx, id);
      ctx.logger.info("case file job created", { requestId: res.locals.requestId, jobId: id, customerId: principal.customerId });
      res.status(201).json(created(job));
    } finally {
      await Promise.all(uploads.filter((u) => !committed.has(u)).map((u) => ctx.storage.discard(u.staged)));
    }
  });
  return router;
}

interface NewCreationJob {
  id: string;
  customerId: number;
  userId: number;
  payloadHash: string;
  idempotencyKey: string | null;
  payload: unknown;
  files: { name: string; sha256: string; size: number }[];
  maxRetries: number;
}

/**
 * The creation job row, written with one plain statement on Prisma's own pool: through Prisma this
 * insert (a large JSON payload through its query compiler) cost ~3 ms of CPU per request, the
 * biggest single item of the create endpoint's profile (bench/README.md).
 */
async function insertCreationJob(ctx: GatewayContext, job: NewCreationJob): Promise<JobRef> {
  const { rows } = await sqlPool(ctx.db).query<{ id: string; payloadHash: string; createdAt: Date }>(
    `INSERT INTO "CreationJob" (id, "customerId", "userId", "payloadHash", "idempotencyKey", payload, files, "maxRetries", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, now())
     RETURNING id, "payloadHash", "createdAt"`,
    [job.id, job.customerId, job.userId, job.payloadHash, job.idempotencyKey, JSON.stringify(job.payload), JSON.stringify(job.files), job.maxRetries],
  );
  const row = rows[0];
  if (!row) throw new Error("creation job insert returned no row");
  return row;
}

/** PostgreSQL's unique_violation on the (customerId, idempotencyKey) index. */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === "23505" && e.constraint === "CreationJob_customerId_idempotencyKey_key";
}

function replay(previous: JobRef, hash: string) {
  if (previous.payloadHash !== hash) {
    throw new AppError("idempotency_mismatch", "This Idempotency-Key was already used with a different payload");
  }
  return created(previous);
}

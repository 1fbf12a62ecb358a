import { randomUUID } from "node:crypto";
import { Router, type Request } from "express";
import { AppError, type FieldIssue } from "@esign/errors";
import { encryptSecret, runOne, sqlPool, violatesUnique } from "@esign/db";
import { sealPayloadIds, unstorableText, validateCreateRequest } from "@esign/schema";
import { looksLikePdf } from "@esign/storage";
import type { PdfRefusal } from "@esign/pdf-inspect";
import type { GatewayContext } from "../context";
import { customerTenant } from "../pdf-inspector";
import { authenticate, principalOf } from "../auth/authenticate";
import { claimUploads, createUploadMiddleware } from "./upload-middleware";
import type { StagedUpload } from "./staging-storage-engine";
import { payloadHash } from "./payload-hash";
import { abuseLimits } from "../http/abuse-limits";
import { serve } from "../contract/serve";
import { caseFileRoutes } from "./casefile-contracts";
import type { CreateAnswer } from "./casefile-schemas";
import { stageDone } from "./create-stages";
import { enqueueCreationJob } from "./enqueue-creation-job";
import { creationJobByKeySql, customerFolderSql, insertCreationJobSql } from "./creation-job.sql";

interface JobRef {
  id: string;
  payloadHash: string;
  createdAt: Date;
}

const created = (job: JobRef): CreateAnswer => ({
  status: "handled",
  message: "Job created",
  jobs: [{ uuid: job.id, payloadHash: job.payloadHash, createdAt: job.createdAt.toISOString() }],
});

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
    const badName = unstorableText(f.originalname);
    if (badName) issues.push({ path: `files[${i}]`, code: badName.code, message: `the file name ${badName.message}` });
    if (f.staged.size === 0) issues.push({ path: `files[${i}]`, code: "empty_file", message: `"${f.originalname}" is empty` });
    else if (!looksLikePdf(f.staged.head, f.staged.tail)) {
      issues.push({ path: `files[${i}]`, code: "not_pdf", message: `"${f.originalname}" is not a PDF (checked by content)` });
    }
  });
  return issues;
}

const REFUSAL_MESSAGE: Record<PdfRefusal, string> = {
  encrypted: "is encrypted (password-protected): upload it without a password",
  unreadable: "could not be read as a PDF",
  no_pages: "has no pages",
  too_costly: "is too costly to inspect, so it was refused",
};

/**
 * Opens every upload that looks like a PDF (in the inspector's processes) before the answer: an
 * encrypted or unreadable file is refused now, naming it, not at finalization after people signed.
 * Returns the page counts by index, and the issues of the refused ones.
 */
async function inspectUploads(ctx: GatewayContext, customerId: number, uploads: StagedUpload[], lookOk: (u: StagedUpload) => boolean) {
  const pages = new Map<number, number>();
  const issues: FieldIssue[] = [];
  await Promise.all(
    uploads.map(async (u, i) => {
      if (!lookOk(u)) return;
      // In the customer's own turn: its uploads wait behind its earlier ones, never in front of another customer's.
      const r = await ctx.pdfInspector.inspect(ctx.storage.stagedPath(u.staged), u.staged.sha256, customerTenant(customerId));
      if (r.ok) pages.set(i, r.pages);
      else {
        // A refusal for cost says why (the bound it passed), so that the sender knows it is not about the file being broken.
        const why = r.reason === "too_costly" ? `: ${r.detail}` : "";
        issues.push({ path: `files[${i}]`, code: `pdf_${r.reason}`, message: `"${u.originalname}" ${REFUSAL_MESSAGE[r.reason]}${why}` });
      }
    }),
  );
  return { pages, issues: issues.sort((a, b) => a.path.localeCompare(b.path)) };
}

export function createCaseFileRouter(ctx: GatewayContext): Router {
  const router = Router();
  const upload = createUploadMiddleware(ctx.config, ctx.storage, ctx.logger);

  const requireMultipart = (req: Request) => {
    if (!req.is("multipart/form-data")) throw new AppError("unsupported_media_type", "The request must be multipart/form-data");
  };

  const limits = abuseLimits(ctx);
  const caps = { signers: ctx.config.CASEFILE_MAX_SIGNERS, documents: ctx.config.CASEFILE_MAX_DOCUMENTS, ccRecipients: ctx.config.CASEFILE_MAX_CC_RECIPIENTS };

  // The rate limit runs before the upload is read: a client over its limit costs no staging.
  serve(
    router,
    caseFileRoutes(ctx.config).createCaseFile,
    authenticate(ctx),
    async (req, res, next) => {
      stageDone(res, "auth");
      requireMultipart(req);
      const customer = String(principalOf(res).customerId);
      // Both Redis round trips at once: one after the other they were two waits on every create's
      // path. The outcome is the sequential one's: the count is taken either way (the budget check
      // only reads), and the create limit's 429 comes first when both refuse.
      const [count, budget] = await Promise.allSettled([
        limits.createsByCustomer.consume(res, customer, "Too many case files created for this account in a minute; slow down"),
        limits.costlyPdfsByCustomer.assertUnder(
          customer,
          "Too many PDFs refused as too costly to inspect for this account in a minute; wait before sending more",
        ),
      ]);
      if (count.status === "rejected") throw count.reason;
      if (budget.status === "rejected") throw budget.reason;
      stageDone(res, "limits");
      next();
    },
    upload,
    async ({ headers }, req, res) => {
      stageDone(res, "multipart");
      const principal = principalOf(res);
      const uploads = claimUploads(req, res);
      const committed = new Set<StagedUpload>();
      try {
        const key = headers["Idempotency-Key"];
        const body = (req.body ?? {}) as Record<string, unknown>;
        const issues = partIssues(body, uploads);
        const inspected = await inspectUploads(ctx, principal.customerId, uploads, (u) => u.staged.size > 0 && looksLikePdf(u.staged.head, u.staged.tail));
        issues.push(...inspected.issues);
        // Each costly refusal counts against the customer's budget, checked before its next upload is read.
        for (const issue of inspected.issues)
          if (issue.code === "pdf_too_costly") await limits.costlyPdfsByCustomer.recordFailure(String(principal.customerId));
        stageDone(res, "inspect");
        const data = typeof body.data === "string" ? body.data : undefined;
        const validation =
          data === undefined
            ? undefined
            : validateCreateRequest(
                data,
                uploads.map((u) => u.originalname),
                caps,
              );
        if (validation && !validation.ok) {
          // The part checks and the payload rules both report a missing file part: list it once.
          const seen = new Set(issues.map((i) => `${i.path}\u0000${i.code}`));
          issues.push(...validation.errors.filter((e) => !seen.has(`${e.path}\u0000${e.code}`)));
        }
        if (issues.length > 0 || !validation?.ok || data === undefined) {
          throw new AppError("validation_failed", "The case file request is invalid", issues);
        }

        const files = uploads.map((u, i) => ({ name: u.originalname, sha256: u.staged.sha256, size: u.staged.size, pages: inspected.pages.get(i) }));
        const hash = payloadHash(data, files);

        if (key !== undefined) {
          const previous = await creationJobByKey(ctx, principal.customerId, key);
          if (previous) return res.status(200).json(replay(previous, hash));
        }

        // After the replay (an earlier answer stands even if its folder is gone since), before anything is stored.
        const { folderId } = validation.value.caseFile;
        if (folderId !== undefined && !(await isCustomersFolder(ctx, principal.customerId, folderId))) {
          throw new AppError("validation_failed", "The case file request is invalid", [
            { path: "caseFile.folderId", code: "unknown_folder", message: `no folder ${folderId} of this customer` },
          ]);
        }

        stageDone(res, "validate");

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
        stageDone(res, "storage");
        const id = randomUUID();
        let job: JobRef;
        try {
          job = await insertCreationJob(ctx, {
            id,
            customerId: principal.customerId,
            userId: principal.userId,
            payloadHash: hash,
            idempotencyKey: key ?? null,
            // National ids encrypted: the job row is kept for 14 days (issue 26).
            payload: sealPayloadIds(validation.value.caseFile, (id) => encryptSecret(id, ctx.config.ENCRYPTION_KEYRING)),
            files,
            maxRetries: ctx.config.CREATE_JOB_MAX_ATTEMPTS,
          });
        } catch (err) {
          // Two requests with the same key raced: the loser answers like a replay.
          if (key !== undefined && isUniqueViolation(err)) {
            const winner = await creationJobByKey(ctx, principal.customerId, key);
            if (!winner) throw err;
            return res.status(200).json(replay(winner, hash));
          }
          throw err;
        }
        stageDone(res, "database");
        await enqueueCreationJob(ctx, id);
        stageDone(res, "enqueue");
        ctx.logger.info("case file job created", { requestId: res.locals.requestId, jobId: id, customerId: principal.customerId });
        // 200, not 201: Penneo's own Postman collection checks "Status code is 200" here.
        res.status(200).json(created(job));
      } finally {
        await Promise.all(uploads.filter((u) => !committed.has(u)).map((u) => ctx.storage.discard(u.staged)));
      }
    },
  );
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
  const row = await runOne(sqlPool(ctx.db), insertCreationJobSql, {
    id: job.id,
    customerId: job.customerId,
    userId: job.userId,
    payloadHash: job.payloadHash,
    idempotencyKey: job.idempotencyKey,
    payload: JSON.stringify(job.payload),
    files: JSON.stringify(job.files),
    maxRetries: job.maxRetries,
  });
  if (!row) throw new Error("creation job insert returned no row");
  return row;
}

/** Whether the create's folderId names a folder of the customer (ids are PostgreSQL integers: a larger one names none). */
async function isCustomersFolder(ctx: GatewayContext, customerId: number, folderId: number): Promise<boolean> {
  if (folderId > 2_147_483_647) return false;
  return (await runOne(sqlPool(ctx.db), customerFolderSql, { id: folderId, customerId })) !== undefined;
}

/** The job sent earlier under this Idempotency-Key, if any (on the pool, like the insert). */
function creationJobByKey(ctx: GatewayContext, customerId: number, idempotencyKey: string): Promise<JobRef | undefined> {
  return runOne(sqlPool(ctx.db), creationJobByKeySql, { customerId, idempotencyKey });
}

/** PostgreSQL's unique_violation on the (customerId, idempotencyKey) index. */
const isUniqueViolation = (err: unknown): boolean => violatesUnique(err, "CreationJob_customerId_idempotencyKey_key");

function replay(previous: JobRef, hash: string) {
  if (previous.payloadHash !== hash) {
    throw new AppError("idempotency_mismatch", "This Idempotency-Key was already used with a different payload");
  }
  return created(previous);
}

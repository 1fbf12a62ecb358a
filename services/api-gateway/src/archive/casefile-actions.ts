import { encryptSecret, lockCaseFileRow, newSigningToken, recordLog, run, runOne, type Tx } from "@esign/db";
import { AppError, type FieldIssue } from "@esign/errors";
import { CASEFILE_STATUS, SIGNER_STATUS, sendJobId, signableDocumentsFor, type LogAudit } from "@esign/schema";
import type { GatewayContext } from "../context";
import { caseFileNotFound } from "../casefiles/owned-casefile";
import { caseFileDocumentRolesSql } from "../casefiles/signer-delete.sql";
import type { CaseFileUpdate } from "./archive-schemas";
import {
  customerAccountSql,
  insertSigningLinksSql,
  markDraftSentSql,
  restoreCaseFileSql,
  signersForSendSql,
  updateCaseFileFieldsSql,
  type CaseFileFields,
} from "./casefile-actions.sql";
import { notADraft, sendProblems } from "./send-readiness";

/*
 * The archive's writes on one case file: a draft sent or activated, its fields changed, a case file
 * restored from the recycle bin. Each is one transaction that locks the case file row first (the
 * order of every writer), writes its log entry in it, and enqueues what the casefile-worker must do
 * only after the commit (a job never runs before the change it acts on is visible).
 */

type Locked = NonNullable<Awaited<ReturnType<typeof lockOwned>>>;

async function lockOwned(tx: Tx, customerId: number, id: number) {
  const row = await runOne(tx, lockCaseFileRow, { id, customerId });
  if (!row) throw caseFileNotFound();
  return row;
}

const inRecycleBin = () => new AppError("conflict", "The case file is in the recycle bin: restore it first (PATCH .../restore)");

/** Status 0 and neither sent nor activated: created with activateCaseFile false. */
const isDraft = (cf: Pick<Locked, "status" | "activate">) => cf.status === CASEFILE_STATUS.new && !cf.activate;

/** The signers' problems and the links to make, read under the case file's lock. */
async function prepareSend(tx: Tx, ctx: GatewayContext, cf: Locked, mails: boolean, now: Date) {
  const [signers, documents, account] = await Promise.all([
    run(tx, signersForSendSql, { caseFileId: cf.id }),
    run(tx, caseFileDocumentRolesSql, { caseFileId: cf.id }),
    runOne(tx, customerAccountSql, { customerId: cf.customerId }),
  ]);
  const problems = sendProblems(cf, signers, documents, account ?? { eboksEnabled: false, secureSigningMethods: [] }, { mails, now });
  // A draft has no links (the create makes them only for a case file it activates): every signer
  // taking part who can sign something gets one now, as the create would have made it.
  const links = signers
    .filter((s) => s.linkId === null && s.status !== SIGNER_STATUS.deleted && signableDocumentsFor(documents, s.role).length > 0)
    .map((s) => {
      const { token, tokenHash } = newSigningToken();
      return { signerId: s.id, tokenHash, tokenEnc: encryptSecret(token, ctx.config.ENCRYPTION_KEY) };
    });
  return { problems, links };
}

const cannotSend = (problems: FieldIssue[]) =>
  new AppError(
    "conflict",
    problems.length === 1 && problems[0]?.code === "not_a_draft"
      ? `${problems[0].message}: only a draft can be sent or activated`
      : `The case file cannot be sent: ${problems.map((p) => p.message).join("; ")}`,
    problems,
  );

/**
 * PATCH .../send (`mails`: the signers get their signing requests) or .../activate (they do not:
 * the integrator hands the links out): the draft gets its signing links and is handed to the
 * casefile-worker's send job at its sendAt (at once when unset or past), which sends it exactly as
 * a case file sent at create with a sendAt: status 1, the first round's `requestActivated` events,
 * and (for a send) the signing-request mails through the notifier.
 */
export async function sendDraft(ctx: GatewayContext, customerId: number, id: number, mails: boolean, audit: LogAudit): Promise<void> {
  const now = new Date();
  const sendAt = await ctx.db.$transaction(async (tx) => {
    const cf = await lockOwned(tx, customerId, id);
    const { problems, links } = await prepareSend(tx, ctx, cf, mails, now);
    if (problems.length > 0) throw cannotSend(problems);
    // The send job looks for work at sendAt; the sweeper finds a due send by it too (a lost job).
    const at = cf.sendAt ?? now;
    await run(tx, markDraftSentSql, { caseFileId: id, sendSigningRequests: mails, sendAt: at });
    if (links.length > 0) await run(tx, insertSigningLinksSql, { links });
    await recordLog(tx, [{ customerId, caseFileId: id, event: mails ? "sent" : "activated", audit, detail: { sendAt: Math.floor(at.getTime() / 1000) } }]);
    return at;
  });
  await enqueueSend(ctx, id, sendJobId(id), sendAt, true);
}

/**
 * `userLogged`: the user's send or activate wrote the log entry; the job then writes none (a send
 * job the sweeper makes again after a loss does not know it, and logs the send as the platform's).
 */
async function enqueueSend(ctx: GatewayContext, caseFileId: number, jobId: string, at: Date, userLogged: boolean): Promise<void> {
  const delay = Math.max(0, at.getTime() - Date.now());
  const outcome = await ctx.enqueueBacklog.enqueue("casefile", "send", { caseFileId, userLogged }, { jobId, delay });
  if (outcome === "deferred") ctx.logger.warn("case file send stored but not enqueued; enqueued again once Redis answers", { caseFileId });
}

/** GET .../errors: what would stop PATCH .../send now (the same check, without writing anything). */
export async function sendErrors(ctx: GatewayContext, customerId: number, id: number): Promise<string[]> {
  return ctx.db.$transaction(async (tx) => {
    const cf = await runOne(tx, lockCaseFileRow, { id, customerId });
    if (!cf) throw caseFileNotFound();
    const { problems } = await prepareSend(tx, ctx, cf, true, new Date());
    return problems.map((p) => p.message);
  });
}

/**
 * PATCH .../restore: a case file in the recycle bin goes back to the status it had (its folder was
 * never changed). Its scheduled jobs found it deleted and did nothing meanwhile; the casefile-worker's
 * sweeper takes up what is now overdue (an expiry, a signer's turn), and a send that came due while
 * it was deleted is enqueued here (the send job's own id may still be held by the run that found it
 * deleted).
 */
export async function restoreCaseFile(ctx: GatewayContext, customerId: number, id: number, audit: LogAudit): Promise<void> {
  const restored = await ctx.db.$transaction(async (tx) => {
    const cf = await lockOwned(tx, customerId, id);
    if (cf.status !== CASEFILE_STATUS.deleted) throw new AppError("conflict", "The case file is not in the recycle bin");
    const status = cf.deletedFromStatus ?? CASEFILE_STATUS.new;
    await run(tx, restoreCaseFileSql, { caseFileId: id, status });
    await recordLog(tx, [{ customerId, caseFileId: id, event: "restored", audit, detail: { toStatus: status } }]);
    return { status, activate: cf.activate, sendAt: cf.sendAt };
  });
  const now = Date.now();
  if (restored.status === CASEFILE_STATUS.new && restored.activate) {
    await enqueueSend(ctx, id, `${sendJobId(id)}-restored-${now}`, restored.sendAt ?? new Date(now), false);
  } else if (restored.status === CASEFILE_STATUS.pending) {
    // Signers whose turn came while it was deleted (their activation found it deleted) are activated now.
    await ctx.enqueueBacklog.enqueue("casefile", "advance", { caseFileId: id }, { jobId: `advance-restored-${id}-${now}` });
  }
}

const unix = (d: Date | null | undefined) => (d ? Math.floor(d.getTime() / 1000) : null);
const fromUnix = (s: number | null) => (s === null ? null : new Date(s * 1000));

/** The columns a PUT body names, in the case file's own terms (dates as Dates, 0 already null). */
function requestedFields(body: CaseFileUpdate): CaseFileFields {
  const fields: CaseFileFields = {};
  if (body.title !== undefined) fields.title = body.title;
  if (body.language !== undefined) fields.language = body.language;
  if (body.metaData !== undefined) fields.metaData = body.metaData;
  if (body.reference !== undefined) fields.reference = body.reference;
  if (body.sendAt !== undefined) fields.sendAt = fromUnix(body.sendAt);
  if (body.expireAt !== undefined) fields.expireAt = fromUnix(body.expireAt);
  if (body.visibilityMode !== undefined) fields.visibilityMode = body.visibilityMode;
  if (body.sensitiveData !== undefined) fields.sensitiveData = body.sensitiveData;
  if (body.disableNotificationsOwner !== undefined) fields.disableNotificationsOwner = body.disableNotificationsOwner;
  if (body.disableEmailAttachments !== undefined) fields.disableEmailAttachments = body.disableEmailAttachments;
  if (body.signOnMeeting !== undefined) fields.signOnMeeting = body.signOnMeeting;
  return fields;
}

/** Only what really changes: a client that PUTs back what it read changes nothing. */
function changedFields(cf: Locked, fields: CaseFileFields): CaseFileFields {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields) as [keyof CaseFileFields, unknown][]) {
    const current: unknown = cf[key];
    const same = current instanceof Date || value instanceof Date ? unix(current as Date | null) === unix(value as Date | null) : current === value;
    if (!same) changed[key] = value;
  }
  return changed as CaseFileFields;
}

/**
 * PUT .../casefiles/{id}: a draft takes every field; once sent, only unchanged values pass (a 409
 * names those that would change); in the recycle bin nothing. Rules across fields as at create:
 * expireAt after sendAt.
 */
export async function updateCaseFile(ctx: GatewayContext, customerId: number, id: number, body: CaseFileUpdate, audit: LogAudit): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    const cf = await lockOwned(tx, customerId, id);
    if (cf.status === CASEFILE_STATUS.deleted) throw inRecycleBin();
    const changed = changedFields(cf, requestedFields(body));
    const keys = Object.keys(changed);
    if (keys.length === 0) return;
    if (!isDraft(cf)) {
      const why = notADraft(cf) ?? "The case file has been sent";
      throw new AppError(
        "conflict",
        `${why}: ${keys.join(", ")} can no longer be changed`,
        keys.map((k) => ({ path: k, code: "not_editable", message: "can only be changed while the case file is a draft" })),
      );
    }
    const sendAt = "sendAt" in changed ? changed.sendAt : cf.sendAt;
    const expireAt = "expireAt" in changed ? changed.expireAt : cf.expireAt;
    if (sendAt && expireAt && new Date(expireAt).getTime() <= new Date(sendAt).getTime()) {
      throw new AppError("validation_failed", "Invalid request body: every failing field is listed", [
        { path: "expireAt", code: "expire_before_send", message: "must be later than sendAt" },
      ]);
    }
    await run(tx, updateCaseFileFieldsSql, { caseFileId: id, fields: changed });
    await recordLog(tx, [{ customerId, caseFileId: id, event: "edited", audit, detail: { changed: keys } }]);
  });
}

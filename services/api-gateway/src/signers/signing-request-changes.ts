import { randomUUID } from "node:crypto";
import { decryptSecret, recordLog, signingLinkUrl, type Prisma, type Signer } from "@esign/db";
import { AppError } from "@esign/errors";
import { CASEFILE_STATUS, SIGNER_NOTIFICATION_KEYS, SIGNER_STATUS, type SignerNotificationKey, type TSigningRequestPatch } from "@esign/schema";
import type { GatewayContext } from "../context";
import type { ActingUser } from "../casefiles/acting-user";
import { caseFileStatusName, lockOwnedCaseFile, lockSignerOf } from "../casefiles/locked-casefile";
import { ownedSigner } from "../casefiles/owned-casefile";
import { accountIssues, ruleFormOf, ruleIssuesOfChange } from "./signer-rules";
import { signerStillOpen } from "./signer-changes";

/*
 * A signer's signing request after creation (Penneo's `signingrequests/{id}`, whose id is the
 * signer's): its fields changed, the request sent again, its link read. Changes lock the case file
 * row, then the signer's, as every writer does.
 */

type RequestField = keyof TSigningRequestPatch;
const isNotificationKey = (f: RequestField): f is SignerNotificationKey => (SIGNER_NOTIFICATION_KEYS as readonly string[]).includes(f);

const notificationOf = (s: Signer): Record<string, unknown> =>
  typeof s.notification === "object" && s.notification !== null && !Array.isArray(s.notification) ? { ...s.notification } : {};

const stored = (s: Signer, f: RequestField): unknown => (isNotificationKey(f) ? (notificationOf(s)[f] ?? null) : s[f]);

/** The fields of the request whose value differs from the stored one (lists compared by content). */
function changedFields(s: Signer, patch: TSigningRequestPatch): RequestField[] {
  return (Object.keys(patch) as RequestField[]).filter((f) => patch[f] !== undefined && JSON.stringify(patch[f]) !== JSON.stringify(stored(s, f)));
}

/** The signer's caseFileId when it is this customer's (locks are taken by the case file first). */
async function caseFileOfSigner(ctx: GatewayContext, customerId: number, signerId: number): Promise<number> {
  return (await ownedSigner(ctx, customerId, signerId)).caseFileId;
}

/**
 * A signing request changed: its address, texts, reminder interval, redirects and methods, while
 * the case file is new or pending and the signer has not signed, rejected or been deleted (Penneo's
 * archive lets a pending signer's email be corrected; the next resend goes to the new address).
 * Each field keeps the create's rules, over the request as it would be after the change.
 */
export async function updateSigningRequest(ctx: GatewayContext, actor: ActingUser, signerId: number, patch: TSigningRequestPatch): Promise<Signer> {
  const caseFileId = await caseFileOfSigner(ctx, actor.customerId, signerId);
  return ctx.db.$transaction(async (tx) => {
    const cf = await lockOwnedCaseFile(tx, actor.customerId, caseFileId);
    await lockSignerOf(tx, caseFileId, signerId);
    const signer = await tx.signer.findUniqueOrThrow({ where: { id: signerId } });
    const fields = changedFields(signer, patch);
    if (fields.length === 0) return signer;
    if (cf.status !== CASEFILE_STATUS.new && cf.status !== CASEFILE_STATUS.pending) {
      throw new AppError(
        "conflict",
        `Signing requests can only be changed while the case file is new or pending; this one is ${caseFileStatusName(cf.status)}`,
      );
    }
    signerStillOpen(signer);
    const account = await tx.customer.findUniqueOrThrow({ where: { id: actor.customerId }, select: { eboksEnabled: true, secureSigningMethods: true } });
    const before = ruleFormOf(signer);
    const after = {
      ...before,
      ...(patch.enableInsecureSigning !== undefined ? { enableInsecureSigning: patch.enableInsecureSigning } : {}),
      ...(patch.insecureSigningMethods !== undefined ? { insecureSigningMethods: patch.insecureSigningMethods } : {}),
      ...(patch.secureSigningMethods !== undefined ? { secureSigningMethods: patch.secureSigningMethods } : {}),
    };
    const issues = [
      ...ruleIssuesOfChange([], before, after, []),
      ...accountIssues(account, { secureSigningMethods: fields.includes("secureSigningMethods") ? patch.secureSigningMethods : undefined }),
    ];
    if (issues.length > 0) throw new AppError("validation_failed", "Invalid signing request: every failing field is listed", issues);

    const notification = notificationOf(signer);
    const data: Record<string, unknown> = {};
    for (const f of fields) {
      if (isNotificationKey(f)) notification[f] = patch[f];
      else data[f] = patch[f];
    }
    if (fields.some(isNotificationKey)) data.notification = notification;
    const updated = await tx.signer.update({ where: { id: signerId }, data: data as Prisma.SignerUpdateInput });
    await recordLog(tx, [{ customerId: actor.customerId, caseFileId, signerId, event: "edited", audit: actor.audit, detail: { fields } }]);
    return updated;
  });
}

/**
 * The signing request sent again now (Penneo's `PATCH signingrequests/{id}/send`: "if you need to
 * re-send the signing request email, fx. due to a change in the email address"): only to a signer
 * whose turn it is and who can still sign, of a pending case file. An undeliverable signer (the last
 * mail bounced) is pending again: the resend is the retry. The `requestResent` entry is written with
 * the check; the notifier sends the message (and writes `requestSent`) from the job enqueued after
 * the commit (kept and enqueued again while Redis is away).
 */
export async function resendSigningRequest(ctx: GatewayContext, actor: ActingUser, signerId: number, now = new Date()): Promise<Signer> {
  const caseFileId = await caseFileOfSigner(ctx, actor.customerId, signerId);
  const resendId = randomUUID();
  const signer = await ctx.db.$transaction(async (tx) => {
    const cf = await lockOwnedCaseFile(tx, actor.customerId, caseFileId);
    await lockSignerOf(tx, caseFileId, signerId);
    const s = await tx.signer.findUniqueOrThrow({ where: { id: signerId }, include: { signingLink: { select: { id: true } } } });
    if (cf.status === CASEFILE_STATUS.new) {
      throw new AppError("conflict", "The case file has not been sent yet: sending it (PATCH casefiles/{id}/send) sends every signing request");
    }
    if (cf.status !== CASEFILE_STATUS.pending)
      throw new AppError("conflict", `Signing requests can only be sent again while the case file is pending; this one is ${caseFileStatusName(cf.status)}`);
    if (cf.expireAt && cf.expireAt.getTime() <= now.getTime()) throw new AppError("conflict", "The case file has expired");
    signerStillOpen(s);
    if (s.status === SIGNER_STATUS.new)
      throw new AppError("conflict", "It is not this signer's turn yet: the request goes out when the signers before them have signed");
    if (s.expiredAt || (s.expireAt && s.expireAt.getTime() <= now.getTime())) throw new AppError("conflict", "The signer's access has expired");
    if (!s.signingLink) throw new AppError("conflict", "This signer has nothing to sign, so there is no signing request to send");
    const { signingLink: _link, ...row } = s;
    const pendingAgain =
      row.status === SIGNER_STATUS.undeliverable ? await tx.signer.update({ where: { id: signerId }, data: { status: SIGNER_STATUS.pending } }) : row;
    await recordLog(tx, [{ customerId: actor.customerId, caseFileId, signerId, event: "requestResent", audit: actor.audit, detail: { channel: row.channel } }]);
    return pendingAgain;
  });
  await ctx.enqueueBacklog.enqueue("notifications", "resend-request", { signerId, resendId }, { jobId: `resend-${resendId}` });
  return signer;
}

/**
 * The signer's signing link (Penneo's `GET signingrequests/{id}/link`), read back from its encrypted
 * token as the notifier does. A draft that is not to be sent has no links yet (they are made when it
 * is sent or activated), a signer with nothing to sign has none, and a deleted signer's or case
 * file's link no longer works: 409.
 */
export async function signingLinkOf(ctx: GatewayContext, customerId: number, signerId: number): Promise<string> {
  const s = await ownedSigner(ctx, customerId, signerId);
  if (s.caseFile.status === CASEFILE_STATUS.deleted) throw new AppError("conflict", "The case file was deleted: its signing links no longer work");
  if (s.status === SIGNER_STATUS.deleted) throw new AppError("conflict", "The signer was deleted: their signing link no longer works");
  if (!s.signingLink) {
    if (s.caseFile.status === CASEFILE_STATUS.new) {
      throw new AppError("conflict", "The case file is a draft that is not to be sent yet: its signing links are made when it is sent or activated");
    }
    throw new AppError("conflict", "This signer has nothing to sign, so there is no signing link");
  }
  return signingLinkUrl(ctx.config.PUBLIC_BASE_URL, decryptSecret(s.signingLink.tokenEnc, ctx.config.ENCRYPTION_KEYRING));
}

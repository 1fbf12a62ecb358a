import { recordLog, type CcRecipient, type Tx } from "@esign/db";
import { AppError } from "@esign/errors";
import type { TCcRecipient, TCopyRecipientPatch } from "@esign/schema";
import type { GatewayContext } from "../context";
import type { ActingUser } from "../casefiles/acting-user";
import { closedCaseFile, isClosed, lockOwnedCaseFile } from "../casefiles/locked-casefile";

/*
 * A case file's copy recipients changed after creation. They are the create's `ccRecipients` rows,
 * which the notifier reads when the case file completes, so whoever is on the list then gets the
 * completion mail. One transaction each, under the case file's row lock; each change is a case file
 * `edited` log entry naming the recipient and what changed.
 */

export const recipientNotFound = () => new AppError("not_found", "Copy recipient not found");

async function lockOpenCaseFile(tx: Tx, actor: ActingUser, caseFileId: number, what: string): Promise<void> {
  const cf = await lockOwnedCaseFile(tx, actor.customerId, caseFileId);
  if (isClosed(cf.status)) throw closedCaseFile(cf, what);
}

const logged = (tx: Tx, actor: ActingUser, caseFileId: number, recipientId: number, change: string, fields?: string[]) =>
  recordLog(tx, [
    {
      customerId: actor.customerId,
      caseFileId,
      event: "edited",
      audit: actor.audit,
      detail: { copyRecipient: recipientId, change, ...(fields ? { fields } : {}) },
    },
  ]);

export async function addRecipient(ctx: GatewayContext, actor: ActingUser, caseFileId: number, input: TCcRecipient): Promise<CcRecipient> {
  return ctx.db.$transaction(async (tx) => {
    await lockOpenCaseFile(tx, actor, caseFileId, "Copy recipients can only be added");
    const count = await tx.ccRecipient.count({ where: { caseFileId } });
    const max = ctx.config.CASEFILE_MAX_CC_RECIPIENTS;
    if (count >= max) throw new AppError("conflict", `A case file has at most ${max} copy recipients; this one has ${count}`);
    const recipient = await tx.ccRecipient.create({ data: { caseFileId, name: input.name, email: input.email, storeAsContact: input.storeAsContact } });
    await logged(tx, actor, caseFileId, recipient.id, "added");
    return recipient;
  });
}

export async function updateRecipient(
  ctx: GatewayContext,
  actor: ActingUser,
  caseFileId: number,
  recipientId: number,
  patch: TCopyRecipientPatch,
): Promise<CcRecipient> {
  return ctx.db.$transaction(async (tx) => {
    await lockOwnedCaseFile(tx, actor.customerId, caseFileId);
    const recipient = await tx.ccRecipient.findFirst({ where: { id: recipientId, caseFileId } });
    if (!recipient) throw recipientNotFound();
    const fields = (["name", "email"] as const).filter((f) => patch[f] !== undefined && patch[f] !== recipient[f]);
    if (fields.length === 0) return recipient;
    await lockOpenCaseFile(tx, actor, caseFileId, "Copy recipients can only be changed");
    const updated = await tx.ccRecipient.update({ where: { id: recipientId }, data: Object.fromEntries(fields.map((f) => [f, patch[f]])) });
    await logged(tx, actor, caseFileId, recipientId, "changed", [...fields]);
    return updated;
  });
}

export async function deleteRecipient(ctx: GatewayContext, actor: ActingUser, caseFileId: number, recipientId: number): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    await lockOpenCaseFile(tx, actor, caseFileId, "Copy recipients can only be removed");
    const removed = await tx.ccRecipient.deleteMany({ where: { id: recipientId, caseFileId } });
    if (removed.count === 0) throw recipientNotFound();
    await logged(tx, actor, caseFileId, recipientId, "removed");
  });
}

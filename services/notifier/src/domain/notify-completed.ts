import { firstRead } from "@esign/db";
import { CASEFILE_STATUS } from "@esign/schema";
import type { NotifierContext } from "../context";
import { completedAttachments } from "./completed-attachments";
import type { AttachmentPolicy, CompletedAudience } from "./completed-message";
import { attachmentPolicyOf, completedRecipients } from "./completed-recipients";
import { MailThrottled } from "@esign/queue";
import { classifyFailure, commitNotification, errorText, withMessageLock, type NotificationKind } from "./notification-records";
import { notificationOfKeySql } from "./notification-records.sql";

export const completedDedupeKey = (caseFileId: number, address: string) => `completed:${caseFileId}:${address.trim().toLowerCase()}`;

export interface CompletedRecipientResult {
  audience: CompletedAudience;
  address: string;
  status: "sent" | "already_sent" | "undeliverable" | "retry";
  error?: string;
}

export type CompletedOutcome =
  | { status: "done"; results: CompletedRecipientResult[]; attachments: AttachmentPolicy }
  | { status: "skipped"; reason: "not_found" | "not_completed" };

/**
 * The completion mails of a case file (sign.casefile.completed): every signer with an email address,
 * every cc recipient, and the owner unless disableNotificationsOwner. One message per address, each
 * once (a Notification per address; an address that is both signer and cc gets the signer's). The
 * signed PDFs are attached unless disableEmailAttachments, and never with sensitiveData.
 * Each address is its own transaction: when one is refused for now, the others stay sent and the
 * BullMQ retry only tries the ones still missing. No events: the spec has none for these mails.
 */
export async function notifyCompleted(ctx: NotifierContext, caseFileId: number): Promise<CompletedOutcome> {
  const cf = await ctx.db.caseFile.findUnique({
    where: { id: caseFileId },
    include: {
      customer: { select: { name: true } },
      signers: { orderBy: { id: "asc" } },
      ccRecipients: { orderBy: { id: "asc" } },
      documents: { select: { id: true, title: true, name: true, signable: true, roles: true, documentOrder: true, fileSha256: true, signedSha256: true } },
    },
  });
  if (!cf) return { status: "skipped", reason: "not_found" };
  if (cf.status !== CASEFILE_STATUS.completed) return { status: "skipped", reason: "not_completed" };
  // No relation on CaseFile.userId: the owner is looked up on its own.
  const owner = cf.disableNotificationsOwner ? null : await ctx.db.user.findUnique({ where: { id: cf.userId }, select: { email: true, name: true } });

  const policy = attachmentPolicyOf(cf);
  const recipients = completedRecipients(cf, owner);
  const attachmentsFor = completedAttachments((sha) => ctx.storage.readAll(sha), policy);

  const seen = new Set<string>();
  const results: CompletedRecipientResult[] = [];
  let retryWith: unknown;
  for (const r of recipients) {
    const dedupeKey = completedDedupeKey(cf.id, r.address);
    if (seen.has(dedupeKey)) continue;
    seen.add(dedupeKey);
    const kind: NotificationKind = r.audience === "owner" ? "owner_completed" : "completed";
    try {
      // The key's lock with the read of its Notification, then the row with COMMIT: two round trips per address.
      const done = await withMessageLock(
        ctx.db,
        dedupeKey,
        firstRead(notificationOfKeySql, { dedupeKey }),
        async (client, sentBefore): Promise<Pick<CompletedRecipientResult, "status" | "error">> => {
          if (sentBefore.length > 0) return { status: "already_sent" };
          const record = { dedupeKey, kind, channel: "email" as const, recipient: r.address, caseFileId: cf.id, signerId: r.signerId };
          await ctx.mailThrottle.take(cf.customerId);
          try {
            const sent = await ctx.mailer.send(r.build(await attachmentsFor(r.documents)));
            await commitNotification(client, { ...record, status: "sent", messageId: sent.messageId });
            return { status: "sent" };
          } catch (err) {
            // Refused for good: recorded, never retried. The signer's status stays as it is (signed).
            if (classifyFailure(err) !== "permanent") throw err;
            await commitNotification(client, { ...record, status: "failed", error: errorText(err) });
            return { status: "undeliverable", error: errorText(err) };
          }
        },
      );
      results.push({ audience: r.audience, address: r.address, ...done });
    } catch (err) {
      // The customer's minute is used up: the rest wait with the job (recipients sent stay sent).
      if (err instanceof MailThrottled) throw err;
      // Refused for now or our side failed: carry on with the others, then fail the job so BullMQ retries.
      retryWith ??= err;
      results.push({ audience: r.audience, address: r.address, status: "retry", error: errorText(err) });
    }
  }
  if (retryWith !== undefined) throw new CompletedRetryError(results, retryWith);
  return { status: "done", results, attachments: policy };
}

/** Thrown after every address was tried when some must be tried again; carries who got what. */
export class CompletedRetryError extends Error {
  override readonly name = "CompletedRetryError";
  constructor(
    readonly results: CompletedRecipientResult[],
    cause: unknown,
  ) {
    const waiting = results.filter((r) => r.status === "retry").length;
    super(`completion mail: ${waiting} of ${results.length} recipients to retry: ${errorText(cause)}`, { cause });
  }
}

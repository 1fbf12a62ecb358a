import { advisoryXactLock, decryptSecret, run, runOne, signingLinkUrl, sqlPool, withSqlTransaction } from "@esign/db";
import { EMAIL_DEFAULT_LANGUAGE, resolveLanguage } from "@esign/i18n";
import { CASEFILE_STATUS, logRow } from "@esign/schema";
import type { NotifierContext } from "../context";
import { fromNameOf } from "./case-file-documents";
import { meetingMessageContent } from "./meeting-message";
import { MEETING_KIND, meetingRoundSql, meetingSignerSql, notificationExistsSql, writeMeetingOutcomeSql } from "./meeting-links.sql";
import { LOCK_NAMESPACE, SEND_TX_OPTIONS, classifyFailure, errorText } from "./notification-records";
import { notificationValues } from "./notification-records.sql";
import { renderHtml, renderText } from "./render-message";

/*
 * signOnMeeting (issue 24, item 8; Penneo's "Sign at meeting"): the signers get no signing-request
 * mail or e-Boks message; the case file's creator gets ONE mail with the links of the signers whose
 * turn has come, to open with them in person. Every activation of a round is one such mail (a later
 * round's, or a signer whose activeAt came later, is a mail of its own). The signers' events stay as
 * usual (`requestActivated`); `requestSent` is not written, since no request went to the signer: each
 * signer whose link went to the creator gets a `linkSentToCreator` log entry instead.
 */

/** One mail per signer activation: the activation's time names it. */
export const meetingDedupeKey = (signerId: number, activatedAt: Date) => `meeting:${signerId}:${activatedAt.getTime()}`;

export type MeetingOutcome =
  | { status: "sent"; messageId: string; signerIds: number[] }
  /** The creator's address refused the mail for good: recorded, not retried (the signers are not affected). */
  | { status: "refused"; reason: string; signerIds: number[] }
  | { status: "skipped"; reason: "not_found" | "signer_not_pending" | "casefile_not_pending" | "already_sent" | "no_creator_address" };

/**
 * The creator's mail for this signer's activation, with every signer activated with it whose link
 * has not gone yet (the first of their jobs sends it, the others find their link sent). With
 * `resendKey` (a deliberate resend of this signer's request) only this signer's link, once per resend.
 * Serialized per case file by an advisory lock, so two signers' jobs never send two mails.
 */
export async function notifyMeetingLinks(ctx: NotifierContext, signerId: number, resendKey?: string): Promise<MeetingOutcome> {
  const head = await runOne(sqlPool(ctx.db), meetingSignerSql, { signerId });
  if (!head) return { status: "skipped", reason: "not_found" };
  if (head.caseFileStatus !== CASEFILE_STATUS.pending) return { status: "skipped", reason: "casefile_not_pending" };
  const activatedAt = head.activatedAt;
  if (!activatedAt) return { status: "skipped", reason: "signer_not_pending" };
  return withSqlTransaction(
    sqlPool(ctx.db),
    async (client): Promise<MeetingOutcome> => {
      await run(client, advisoryXactLock, { namespace: LOCK_NAMESPACE, key: `meeting:${head.caseFileId}` });
      const round = await run(client, meetingRoundSql, { caseFileId: head.caseFileId, activatedAt });
      const own = round.find((r) => r.id === signerId);
      if (!own) return { status: "skipped", reason: "signer_not_pending" };
      if (resendKey ? (await run(client, notificationExistsSql, { dedupeKey: resendKey })).length > 0 : own.covered) {
        return { status: "skipped", reason: "already_sent" };
      }
      const included = resendKey ? [own] : round.filter((r) => !r.covered);
      const keyOf = (id: number) => resendKey ?? meetingDedupeKey(id, activatedAt);
      const to = head.creatorEmail?.trim();
      if (!to) return { status: "skipped", reason: "no_creator_address" };

      const language = resolveLanguage([head.language], EMAIL_DEFAULT_LANGUAGE);
      const content = meetingMessageContent({
        language,
        creatorName: head.creatorName ?? to,
        caseFile: { title: head.title, senderName: head.senderName, customerName: head.customerName },
        signers: included.map((r) => ({
          name: r.name,
          role: r.role,
          link: signingLinkUrl(ctx.config.PUBLIC_BASE_URL, decryptSecret(r.tokenEnc, ctx.config.ENCRYPTION_KEYRING)),
        })),
      });
      const rows = (status: "sent" | "failed", extra: { messageId?: string; error?: string }) =>
        included.map((r) =>
          notificationValues({
            dedupeKey: keyOf(r.id),
            kind: MEETING_KIND,
            channel: "email",
            recipient: to,
            caseFileId: head.caseFileId,
            signerId: r.id,
            status,
            ...extra,
          }),
        );
      const signerIds = included.map((r) => r.id);

      await ctx.mailThrottle.take(head.customerId);
      let messageId: string;
      try {
        ({ messageId } = await ctx.mailer.send({
          to: [to],
          subject: content.subject,
          text: renderText(content),
          html: renderHtml(content),
          fromName: fromNameOf(head.senderName),
          headers: { "X-Esign-Notification": "meeting-links", "X-Esign-Case-File-Id": String(head.caseFileId), "Auto-Submitted": "auto-generated" },
        }));
      } catch (err) {
        // Refused for now, or our side: the job is retried. Refused for good: recorded once.
        if (classifyFailure(err) !== "permanent") throw err;
        await run(client, writeMeetingOutcomeSql, { notifications: rows("failed", { error: errorText(err) }), log: [] });
        return { status: "refused", reason: errorText(err), signerIds };
      }
      const log = included.map((r) =>
        logRow({
          customerId: head.customerId,
          caseFileId: head.caseFileId,
          signerId: r.id,
          event: "linkSentToCreator",
          detail: { resend: resendKey !== undefined },
        }),
      );
      await run(client, writeMeetingOutcomeSql, { notifications: rows("sent", { messageId }), log });
      return { status: "sent", messageId, signerIds };
    },
    { idleTimeoutMs: SEND_TX_OPTIONS.timeout },
  );
}

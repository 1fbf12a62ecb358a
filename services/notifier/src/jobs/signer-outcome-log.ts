import type { Logger } from "@esign/logger";
import type { SignerOutcome } from "../domain/notify-signer";
import type { RequestOutcome } from "../domain/notify-signing-request";

/**
 * Logs what a request or reminder job did, and throws on a transient bounce so BullMQ retries it
 * (the transientBounce event is already committed). Skips are routine (a signer who signed stops the
 * reminders) except a missing signing link, which means the data is wrong.
 */
export function settleSignerOutcome(logger: Logger, what: string, meta: Record<string, unknown>, outcome: SignerOutcome & { nextReminder?: number }): void {
  const next = outcome.nextReminder === undefined ? {} : { nextReminder: outcome.nextReminder };
  switch (outcome.status) {
    case "sent":
      logger.info(`${what} sent`, { ...meta, channel: outcome.channel, messageId: outcome.messageId, ...next });
      return;
    case "undeliverable":
      logger.warn(`${what} undeliverable: signer marked undeliverable, not retried`, {
        ...meta,
        channel: outcome.channel,
        reason: outcome.reason,
        responseCode: outcome.responseCode,
      });
      return;
    case "bounced":
      logger.warn(`${what} refused for now (transient bounce); retrying`, { ...meta, channel: outcome.channel, responseCode: outcome.responseCode });
      throw outcome.error;
    case "skipped":
      if (outcome.reason === "no_signing_link") logger.error(`${what} not sent: the signer has no readable signing link`, meta);
      else logger.info(`${what} not sent`, { ...meta, reason: outcome.reason, ...next });
      return;
  }
}

/** settleSignerOutcome for a signing request, which with signOnMeeting is the creator's mail instead. */
export function settleRequestOutcome(logger: Logger, what: string, meta: Record<string, unknown>, outcome: RequestOutcome): void {
  if (outcome.status !== "meeting") return settleSignerOutcome(logger, what, meta, outcome);
  const m = outcome.meeting;
  if (m.status === "sent")
    logger.info(`${what}: signOnMeeting, the links went to the case file's creator`, { ...meta, messageId: m.messageId, signerIds: m.signerIds });
  else if (m.status === "refused")
    logger.warn(`${what}: signOnMeeting, the creator's address refused the links for good`, { ...meta, reason: m.reason, signerIds: m.signerIds });
  else if (m.reason === "no_creator_address") logger.error(`${what}: signOnMeeting, the case file's creator has no address for the links`, meta);
  else logger.info(`${what}: signOnMeeting, nothing to send`, { ...meta, reason: m.reason });
}

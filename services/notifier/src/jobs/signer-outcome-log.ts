import type { Logger } from "@esign/logger";
import type { SignerOutcome } from "../domain/notify-signer";

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

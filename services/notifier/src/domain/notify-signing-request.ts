import type { NotifierContext } from "../context";
import { notifySigner, type SignerOutcome } from "./notify-signer";
import { scheduleNextReminder } from "./reminder-schedule";

/** One request per activation of a signer: a later round activates the signer again, with a new event. */
export const requestDedupeKey = (signerId: number, eventId: string) => `request:${signerId}:${eventId}`;

/**
 * The signing request of one activation (sign.signer.requestActivated), then reminder #1 when the
 * signer has a reminderInterval. A copy of the job that finds the request already sent only makes
 * sure the reminder chain exists: the process may have died between the commit and the enqueue.
 */
export async function notifySigningRequest(ctx: NotifierContext, signerId: number, eventId: string): Promise<SignerOutcome & { nextReminder?: number }> {
  const outcome = await notifySigner(ctx, "signing_request", signerId, requestDedupeKey(signerId, eventId));
  if (outcome.status === "sent" || (outcome.status === "skipped" && outcome.reminders)) {
    const nextReminder = await scheduleNextReminder(ctx, outcome.reminders!);
    return { ...outcome, nextReminder };
  }
  return outcome;
}

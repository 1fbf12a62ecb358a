import type { NotifierContext } from "../context";
import { notifyMeetingLinks, type MeetingOutcome } from "./meeting-links";
import { notifySigner, type SignerOutcome } from "./notify-signer";
import { scheduleNextReminder } from "./reminder-schedule";

/** One request per activation of a signer: a later round activates the signer again, with a new event. */
export const requestDedupeKey = (signerId: number, eventId: string) => `request:${signerId}:${eventId}`;

/** One request per deliberate resend (`PATCH signingrequests/{id}/send`): each resend has its own id. */
export const resendDedupeKey = (signerId: number, resendId: string) => `resend:${signerId}:${resendId}`;

export type RequestOutcome = (SignerOutcome & { nextReminder?: number }) | { status: "meeting"; meeting: MeetingOutcome };

/**
 * A signing request (of one activation, sign.signer.requestActivated, or of a resend), then reminder
 * #1 when the signer has a reminderInterval. A copy of the job that finds the request already sent
 * only makes sure the reminder chain exists: the process may have died between the commit and the
 * enqueue. With signOnMeeting the signer gets nothing: the creator gets the link (meeting-links.ts).
 */
export async function notifySigningRequest(ctx: NotifierContext, signerId: number, dedupeKey: string, resend = false): Promise<RequestOutcome> {
  const outcome = await notifySigner(ctx, "signing_request", signerId, dedupeKey);
  if (outcome.status === "skipped" && outcome.reason === "sign_on_meeting") {
    return { status: "meeting", meeting: await notifyMeetingLinks(ctx, signerId, resend ? dedupeKey : undefined) };
  }
  if (outcome.status === "sent" || (outcome.status === "skipped" && outcome.reminders)) {
    const nextReminder = await scheduleNextReminder(ctx, outcome.reminders!);
    return { ...outcome, nextReminder };
  }
  return outcome;
}

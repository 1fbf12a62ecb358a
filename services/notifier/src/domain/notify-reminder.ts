import type { NotifierContext } from "../context";
import { notifySigner, type SignerOutcome } from "./notify-signer";
import { scheduleNextReminder } from "./reminder-schedule";

export const reminderDedupeKey = (signerId: number, sequence: number) => `reminder:${signerId}:${sequence}`;

/**
 * Reminder number `sequence`, only while the signer and the case file are still pending; then the next
 * one, an interval later. The chain ends by itself: the first reminder that finds the signer signed,
 * rejected, deleted, undeliverable or expired (or the case file no longer pending) sends nothing and
 * queues nothing.
 */
export async function notifyReminder(ctx: NotifierContext, signerId: number, sequence: number): Promise<SignerOutcome & { nextReminder?: number }> {
  const outcome = await notifySigner(ctx, "reminder", signerId, reminderDedupeKey(signerId, sequence));
  if (outcome.status === "sent" || (outcome.status === "skipped" && outcome.reminders)) {
    const nextReminder = await scheduleNextReminder(ctx, outcome.reminders!, sequence);
    return { ...outcome, nextReminder };
  }
  return outcome;
}

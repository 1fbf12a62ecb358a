import type { NotifierContext } from "../context";
import type { ReminderState } from "./notify-signer";

/** Deterministic: a request job run twice, or a reminder re-ensured after a crash, adds one job. */
export const reminderJobId = (signerId: number, sequence: number) => `reminder-${signerId}-${sequence}`;

/**
 * Queues the signer's next reminder one reminderInterval after the last message that went out.
 * Its sequence is one past every reminder sent so far (remindersSent counts across activations, so a
 * signer activated again in a later round continues the numbering and keeps distinct dedupe keys).
 * The job is removed once it completes, so the same id can be queued again after a chain that stopped
 * (signer signed in round 1, activated again in round 2). Returns the sequence queued, if any.
 */
export async function scheduleNextReminder(ctx: NotifierContext, state: ReminderState, afterSequence = 0): Promise<number | undefined> {
  if (!state.reminderIntervalDays || !state.pending) return undefined;
  const sequence = Math.max(afterSequence, state.remindersSent) + 1;
  const intervalMs = state.reminderIntervalDays * ctx.config.REMINDER_DAY_MS;
  const delay = Math.max(0, state.lastSentAt.getTime() + intervalMs - Date.now());
  await ctx.producer.enqueue(
    "notifications",
    "reminder",
    { signerId: state.signerId, sequence },
    { jobId: reminderJobId(state.signerId, sequence), delay, removeOnComplete: true },
  );
  return sequence;
}

import type { JobData } from "@esign/schema";
import type { NotifierContext } from "../context";
import { notifyReminder } from "../domain/notify-reminder";
import { settleSignerOutcome } from "./signer-outcome-log";

/** notifications/reminder: reminder number `sequence` while the signer is still pending; then the next. */
export async function reminderJob(ctx: NotifierContext, data: JobData<"notifications", "reminder">): Promise<void> {
  const outcome = await notifyReminder(ctx, data.signerId, data.sequence);
  settleSignerOutcome(ctx.logger, "reminder", { signerId: data.signerId, sequence: data.sequence }, outcome);
}

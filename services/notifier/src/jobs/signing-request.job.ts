import type { JobData } from "@esign/schema";
import type { NotifierContext } from "../context";
import { notifySigningRequest, requestDedupeKey, resendDedupeKey } from "../domain/notify-signing-request";
import { settleRequestOutcome } from "./signer-outcome-log";

/** notifications/signing-request: the request of one activation, by email or e-Boks; then reminder #1. */
export async function signingRequestJob(ctx: NotifierContext, data: JobData<"notifications", "signing-request">): Promise<void> {
  if (data.customerId !== undefined) await ctx.mailThrottle.hold(data.customerId);
  const outcome = await notifySigningRequest(ctx, data.signerId, requestDedupeKey(data.signerId, data.eventId));
  settleRequestOutcome(ctx.logger, "signing request", { signerId: data.signerId, eventId: data.eventId }, outcome);
}

/** notifications/resend-request: the request sent again on the API user's request, once per resend. */
export async function resendRequestJob(ctx: NotifierContext, data: JobData<"notifications", "resend-request">): Promise<void> {
  const outcome = await notifySigningRequest(ctx, data.signerId, resendDedupeKey(data.signerId, data.resendId), true);
  settleRequestOutcome(ctx.logger, "signing request (resent)", { signerId: data.signerId, resendId: data.resendId }, outcome);
}

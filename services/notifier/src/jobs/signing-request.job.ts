import type { JobData } from "@esign/schema";
import type { NotifierContext } from "../context";
import { notifySigningRequest } from "../domain/notify-signing-request";
import { settleSignerOutcome } from "./signer-outcome-log";

/** notifications/signing-request: the request of one activation, by email or e-Boks; then reminder #1. */
export async function signingRequestJob(ctx: NotifierContext, data: JobData<"notifications", "signing-request">): Promise<void> {
  const outcome = await notifySigningRequest(ctx, data.signerId, data.eventId);
  settleSignerOutcome(ctx.logger, "signing request", { signerId: data.signerId, eventId: data.eventId }, outcome);
}

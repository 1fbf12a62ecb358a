import type { JobData } from "@esign/schema";
import type { DispatcherContext } from "../context";
import { attemptDelivery } from "../domain/attempt-delivery";

/** webhooks/deliver: one attempt of one delivery; the ladder is driven by the handler, not BullMQ retries. */
export async function deliverWebhookJob(ctx: DispatcherContext, data: JobData<"webhooks", "deliver">): Promise<void> {
  await attemptDelivery(ctx, data.deliveryId, data.attempt, data.slotAt);
}

import type { JobData } from "@esign/schema";
import type { DispatcherContext } from "../context";
import { fanOutEvent } from "../domain/fan-out";

/** events/dispatch: one event (relayed from the outbox) -> one delivery per matching subscription. */
export async function dispatchEventJob(ctx: DispatcherContext, data: JobData<"events", "dispatch">): Promise<void> {
  await fanOutEvent(ctx, data.eventId);
}

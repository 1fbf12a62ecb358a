import type { JobData } from "@esign/schema";
import type { DispatcherContext } from "../context";
import { fanOutEvents } from "../domain/fan-out";

/** events/dispatch: the events of one outbox drain -> one delivery per matching subscription each. */
export async function dispatchEventJob(ctx: DispatcherContext, data: JobData<"events", "dispatch">): Promise<void> {
  await fanOutEvents(ctx, "eventIds" in data ? data.eventIds : [data.eventId]);
}

import type { JobData } from "@esign/schema";
import type { DispatcherContext } from "../context";
import { runRecoverTask } from "../domain/recover-task";

/** webhooks/recover: one recover task, batch by batch (see domain/recover-task.ts). */
export async function recoverJob(ctx: DispatcherContext, data: JobData<"webhooks", "recover">): Promise<void> {
  await runRecoverTask(ctx, data.taskId);
}

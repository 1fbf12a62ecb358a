import { ZCaseFilePayload, ZSignerPayload } from "./events";
import type { JobData, JobNames, QueueName } from "./jobs";

/**
 * Internal reactions to events, published by the outbox relay next to the webhook fan-out. Going
 * through the outbox makes them as durable as the state change that caused them: a signer who signed
 * always gets their round advanced, a signer who was activated always gets their request.
 * Job ids derive from the event id, so a relay publishing twice enqueues once.
 */
type JobOf<Q extends QueueName> = {
  [N in JobNames<Q>]: { queue: Q; name: N; data: JobData<Q, N>; jobId: string };
}[JobNames<Q>];

/** Any job of the catalog, with its data typed by queue and name. */
export type InternalJob = { [Q in QueueName]: JobOf<Q> }[QueueName];

export function internalJobsFor(event: { id: string; eventType: string; payload: unknown; customerId: number }): InternalJob[] {
  // The catalog's payload schemas: the reactions read the payloads every writer builds with it.
  const signer = ZSignerPayload.safeParse(event.payload);
  const caseFile = ZCaseFilePayload.safeParse(event.payload);
  switch (event.eventType) {
    case "sign.signer.requestActivated":
      return signer.success
        ? [
            {
              queue: "notifications",
              name: "signing-request",
              data: { signerId: signer.data.id, eventId: event.id, customerId: event.customerId },
              jobId: `request-${event.id}`,
            },
          ]
        : [];
    case "sign.signer.signed":
    case "sign.signer.deleted":
    case "sign.signer.rejected":
      return signer.success ? [{ queue: "casefile", name: "advance", data: { caseFileId: signer.data.caseFile.id }, jobId: `advance-${event.id}` }] : [];
    case "sign.casefile.completed":
      return caseFile.success ? [{ queue: "notifications", name: "completed", data: { caseFileId: caseFile.data.id }, jobId: `completed-${event.id}` }] : [];
    default:
      return [];
  }
}

import { ZCaseFilePayload, ZSignerPayload, type EventType } from "./events";
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

interface RoutedEvent {
  id: string;
  eventType: string;
  payload: unknown;
  customerId: number;
}

const advance = (event: RoutedEvent): InternalJob[] => {
  const signer = ZSignerPayload.safeParse(event.payload);
  return signer.success ? [{ queue: "casefile", name: "advance", data: { caseFileId: signer.data.caseFile.id }, jobId: `advance-${event.id}` }] : [];
};

// The catalog's payload schemas: the reactions read the payloads every writer builds with it.
const REACTIONS: Partial<Record<EventType, (event: RoutedEvent) => InternalJob[]>> = {
  "sign.signer.requestActivated": (event) => {
    const signer = ZSignerPayload.safeParse(event.payload);
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
  },
  "sign.signer.signed": advance,
  "sign.signer.deleted": advance,
  "sign.signer.rejected": advance,
  "sign.casefile.completed": (event) => {
    const caseFile = ZCaseFilePayload.safeParse(event.payload);
    return caseFile.success ? [{ queue: "notifications", name: "completed", data: { caseFileId: caseFile.data.id }, jobId: `completed-${event.id}` }] : [];
  },
};

export function internalJobsFor(event: RoutedEvent): InternalJob[] {
  return REACTIONS[event.eventType as EventType]?.(event) ?? [];
}

/**
 * Whether events of this type have internal reactions. One without them that no subscription wants
 * has nothing to be relayed: its writer may insert it relayed (outbox-relay's relayedUnlessSubscribed).
 */
export function hasInternalReactions(eventType: string): boolean {
  return Object.hasOwn(REACTIONS, eventType);
}

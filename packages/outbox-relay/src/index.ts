export { OutboxRelay } from "./outbox-relay";
export type { OutboxRelayOptions } from "./outbox-relay";
export { drainOutboxBatch, hasUnrelayedEvents, publishCommittedEvents, RELAY_BATCH_SIZE } from "./drain-outbox";
export type { RelayableEvent } from "./drain-outbox";
export { relayedUnlessSubscribed, subscribedEventsIn } from "./drain-outbox.sql";
export { startOutboxRelay } from "./start-outbox-relay";
export type { OutboxRelaySettings, RunningOutboxRelay } from "./start-outbox-relay";

export { OutboxRelay } from "./outbox-relay";
export type { OutboxRelayOptions } from "./outbox-relay";
export { drainOutboxBatch, hasUnrelayedEvents, RELAY_BATCH_SIZE } from "./drain-outbox";
export { startOutboxRelay } from "./start-outbox-relay";
export type { OutboxRelaySettings, RunningOutboxRelay } from "./start-outbox-relay";

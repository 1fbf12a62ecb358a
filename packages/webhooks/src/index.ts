// Webhook domain shared by the gateway (subscription API) and the dispatcher.
// CONTRACT between the two (implementations live in the files named; signatures are fixed):
//
//   ladder.ts
//     export const MAX_ATTEMPTS = 36;                     // first attempt + 35 retries
//     export function retryDelayMs(failedAttempts: number, scale: number): number | null
//        // delay before the next attempt after `failedAttempts` failures in the current ladder;
//        // 5,10,15,20,25 s then 30 x 1 h (all x scale); null when the ladder is exhausted
//   event-body.ts
//     export function buildEventBody(event: Event): string   // exact bytes POSTed, identical across retries
//   redeliver.ts
//     export async function requestRedelivery(db: Db, producer: Producer, subscriptionId: string, eventId: string): Promise<boolean>
//        // false when that subscription never had a delivery of that event; else a new ladder starts now
//   resume.ts
//     export async function resumeSubscription(db: Db, producer: Producer, subscriptionId: string): Promise<number>
//        // after re-enabling: suspended deliveries of that subscription start a new ladder; returns how many
//   cancel.ts
//     export async function cancelSubscriptionDeliveries(db: Db, subscriptionId: string): Promise<number>
//        // after deletion: pending/suspended deliveries become cancelled
//   test-event.ts
//     export async function createTestEvent(db: Db, customerId: number, subscriptionId: string): Promise<string> // event id
//     export async function createAccountTestEvent(db: Db, customerId: number): Promise<string> // event id
//   subscription-secret.ts
//     export function newSubscriptionSecret(): string

export { MAX_ATTEMPTS, LADDER_DELAYS_MS, retryDelayMs } from "./ladder";
export { buildEventBody, formatEventDate } from "./event-body";
export { requestRedelivery } from "./redeliver";
export { resumeSubscription } from "./resume";
export { cancelSubscriptionDeliveries } from "./cancel";
export { createAccountTestEvent, createTestEvent, testEventPayload } from "./test-event";
export { newSubscriptionSecret, SUBSCRIPTION_SECRET_PREFIX } from "./subscription-secret";
export { SubscriptionNotFoundError } from "./errors";
export { DELIVERY_STATE, ATTEMPT_CAUSES } from "./delivery-states";
export type { DeliveryState, AttemptCause, AttemptOutcome } from "./delivery-states";
export {
  deliverJobId,
  dispatchJobId,
  subscriptionDisabledJobId,
  scheduleAttempt,
  scheduleThrottledAttempt,
  ensureAttemptNow,
  ensureDisabledNotification,
} from "./delivery-jobs";
export type { EnsureJobResult } from "./delivery-jobs";
export { subscriptionMatchesEvent } from "./subscription-matches-event";
export { RECOVER_STATE, recoverJobId, enqueueRecoverTask, ensureRecoverJob } from "./recover-tasks";
export type { RecoverState } from "./recover-tasks";

import { firstRead, run, runOne, sqlPool, withSqlTransaction, type Db } from "@esign/db";
import type { JobRequest, MailThrottle, Producer } from "@esign/queue";
import { internalJobsFor } from "@esign/schema";
import { dispatchJobId } from "@esign/webhooks";
import { claimOutboxBatchSql, hasUnrelayedEventsSql, markEventsRelayedSql, markRelayedArgs } from "./drain-outbox.sql";
import { delaysOf } from "./held-requests";

export const RELAY_BATCH_SIZE = 100;
/** A drain's transaction is cut (and its row locks released) after this long idle. */
const RELAY_TRANSACTION_LIMIT_MS = 15_000;

/** An event as the relay routes it: claimed from the outbox, or published by its writer after its commit. */
export interface RelayableEvent {
  id: string;
  /** Its customer: a signing request's job carries it, for the mail throttle (event-routes.ts). */
  customerId: number;
  eventType: string;
  payload: unknown;
  /** Whether any subscription matches it now (the fan-out decides which, when it runs). */
  hasSubscribers: boolean;
}

/** Whether any event awaits relaying (one index lookup, no transaction, no row lock). */
export async function hasUnrelayedEvents(db: Db): Promise<boolean> {
  return (await runOne(sqlPool(db), hasUnrelayedEventsSql, {}))?.found === true;
}

/**
 * Relays one batch of unrelayed events, oldest first: claims them and sets relayedAt (FOR UPDATE
 * SKIP LOCKED, so replicas take disjoint batches), adds one events/dispatch job for those of them some subscription
 * matches (job id: dispatchJobId) and each event's internal reactions of @esign/schema's event
 * routes (signing request, round advance, completion mails; job ids derived from the event id),
 * all before the commit.
 * Redis down: an enqueue throws, the transaction rolls back, the rows stay unrelayed for the next
 * drain. A crash after the enqueue but before the commit: the next drain adds the same job ids
 * again, which BullMQ ignores (or, if the first jobs already finished and were removed, runs
 * handlers that are idempotent). Returns how many events were relayed.
 */
export async function drainOutboxBatch(db: Db, producer: Producer, batchSize = RELAY_BATCH_SIZE, mailThrottle?: MailThrottle): Promise<number> {
  // Plain statements on Prisma's own pool (through Prisma a drain cost ~4 ms of CPU), and two round
  // trips: the claim travels with BEGIN and marks the rows relayed at once (uncommitted until the
  // jobs are in Redis), the commit goes alone. Under load the relay drains every few events, and
  // each round trip waits its turn on a busy event loop: at 400 events/s most of an event's way to
  // the receiver was spent here (bench/README.md). The claim goes as BEGIN's first read, a prepared
  // statement: pasted into the opening's text it was planned at every drain (202 us of PostgreSQL's
  // CPU a drain over a dispatch bench run, pg_stat_statements; bench/README.md round 15).
  return withSqlTransaction<number, RelayableEvent>(
    sqlPool(db),
    async (_client, claimed) => {
      if (claimed.length === 0) return 0;
      await enqueueEventJobs(producer, claimed, mailThrottle);
      return claimed.length;
      // Fail-fast Redis keeps this short; the limit only bounds a stuck transaction holding row locks.
    },
    { idleTimeoutMs: RELAY_TRANSACTION_LIMIT_MS, firstRead: firstRead(claimOutboxBatchSql, { batchSize }) },
  );
}

/**
 * Adds the jobs of a batch of events: one events/dispatch job for those some subscription wants
 * (job id: dispatchJobId) and each event's internal reactions of @esign/schema's event routes
 * (signing request, round advance, completion mails; job ids derived from the event id), a held-back
 * customer's signing requests delayed to their places in its mail line. Adding the same events
 * again adds nothing new: BullMQ ignores a job id it has (or, once the jobs finished and were
 * removed, runs handlers that are idempotent).
 */
async function enqueueEventJobs(
  producer: Producer,
  events: readonly RelayableEvent[],
  mailThrottle?: MailThrottle,
  also: readonly JobRequest[] = [],
): Promise<void> {
  // One dispatch job for the batch's events that some subscription wants: its fan-out is one
  // statement, its first attempts one record per event, and the queue's cost is paid once (a job
  // per event cost about a third of the dispatcher's CPU at 500 events/s, bench/README.md). An
  // event no subscription wants is left out; a subscription made after this point is newer than
  // the event, which it would not get from the fan-out either way.
  const wanted = events.filter((event) => event.hasSubscribers).map((event) => event.id);
  const internal = events.flatMap((event) => internalJobsFor(event));
  const delays = await delaysOf(mailThrottle, internal);
  // One pipeline: a batch's jobs are one socket write and one round trip, whatever their number.
  await producer.enqueueAll([
    ...(wanted.length > 0 ? [{ queue: "events" as const, name: "dispatch", data: { eventIds: wanted }, opts: { jobId: dispatchJobId(wanted) } }] : []),
    ...internal.map((job, i) => {
      const delay = delays[i] ?? 0;
      return { queue: job.queue, name: job.name, data: job.data, opts: delay > 0 ? { jobId: job.jobId, delay } : { jobId: job.jobId } };
    }),
    ...also,
  ]);
}

/**
 * Publishes events their writer has just committed, then marks them relayed: what a relay's drain
 * does for them, without the relay's wake-up, claim and second round trip (the creation job's
 * events, bench/README.md round 10). Only the events no subscription wants: those have only internal
 * jobs, whose ids derive from the event, so the relay adding them again adds nothing. An event some
 * subscription wants is left to the relay (its writer NOTIFYs for it): its dispatch job's id is its
 * batch's, and an event published here and relayed again in another batch would be delivered
 * twice. Call it only after the commit: a job must never name a row that may yet roll back. If it
 * fails, or the process dies before the mark, the events are still unrelayed and the relay's poll
 * (OUTBOX_POLL_INTERVAL_MS) relays them. `also`: the writer's own jobs of the same commit (a case
 * file's timers), added in the same pipeline, one round trip fewer; when this throws the caller
 * cannot tell whether they were added and adds them again (their ids must be deterministic).
 */
export async function publishCommittedEvents(
  db: Db,
  producer: Producer,
  events: readonly RelayableEvent[],
  mailThrottle?: MailThrottle,
  also: readonly JobRequest[] = [],
): Promise<void> {
  const own = events.filter((e) => !e.hasSubscribers);
  if (own.length === 0) {
    if (also.length > 0) await producer.enqueueAll(also);
    return;
  }
  await enqueueEventJobs(producer, own, mailThrottle, also);
  await run(sqlPool(db), markEventsRelayedSql, markRelayedArgs(own.map((e) => e.id)));
}

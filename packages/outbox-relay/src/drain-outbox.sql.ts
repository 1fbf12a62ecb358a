import {
  anyOfSubquery,
  commitsWithoutWaitingForDisk,
  cteRows,
  defineStatement,
  keyList,
  keysOf,
  literalInt,
  qb,
  type DB,
  type ExpressionBuilder,
  type RelayedAtOf,
} from "@esign/db";
import { subscriptionMatchesEvent } from "@esign/webhooks";

type EventColumns = Pick<DB["Event"], "id" | "customerId" | "eventType" | "targetSubscriptionId">;

/** Whether some subscription wants event `e` now (subscriptionMatchesEvent): the claim's hasSubscribers. */
const someSubscriptionWants = (eb: ExpressionBuilder<DB & { e: EventColumns }, "e">) =>
  eb.exists(eb.selectFrom("WebhookSubscription as s").select("s.id").where(subscriptionMatchesEvent));

/**
 * The relayedAt of an event whose type has no internal reactions (hasInternalReactions), decided in
 * its writer's insert (serializedEventInsert): null when some subscription wants it now (the relay
 * fans it out, woken by notifyOutboxIfAnyUnrelayed), else the insert's time. An event nobody wants
 * has nothing to relay, so the relay is neither woken nor made to claim it: per signing request that
 * was a NOTIFY, a drain's two round trips and its transaction (issue 25). The same match as the
 * relay's claim makes (hasSubscribers); a subscription made after the insert is newer than the event,
 * which the relay's fan-out would not give it either.
 */
export const relayedUnlessSubscribed: RelayedAtOf = (eb) =>
  eb.case().when(someSubscriptionWants(eb)).then(eb.lit(null)).else(eb.fn<Date>("clock_timestamp")).end();

/**
 * Whether any event awaits relaying (one index lookup, no transaction).
 *
 * Locks: nothing.
 */
export const hasUnrelayedEventsSql = defineStatement(
  "outbox-has-unrelayed-events",
  {},
  () => qb.selectNoFrom((eb) => eb.exists(eb.selectFrom("Event").select("id").where("relayedAt", "is", null)).as("found")),
  { reuse: "value" },
);

/**
 * Claims the oldest unrelayed events and marks them relayed (FOR UPDATE SKIP LOCKED, so replicas
 * take disjoint batches; the claimed ids are then looked up by key, never by a scan of every event),
 * answering each with whether any subscription matches it now. It rides with BEGIN in one round
 * trip as the transaction's first read (withSqlTransaction's firstRead), a prepared statement whose
 * plan PostgreSQL keeps.
 *
 * Locks: the claimed Event rows (FOR UPDATE SKIP LOCKED, then the UPDATE's) until the drain's
 * transaction commits, after its jobs are in Redis: another relay skips them rather than wait, and
 * a failed enqueue rolls the claim back, leaving them unrelayed for the next drain.
 */
export const claimOutboxBatchSql = defineStatement(
  "outbox-claim-batch",
  { batchSize: 100 },
  ({ batchSize }) =>
    qb
      .with("claimed", (db) =>
        db
          .updateTable("Event")
          .set((eb) => ({ relayedAt: eb.fn<Date>("clock_timestamp") }))
          .where(
            "id",
            "=",
            anyOfSubquery(
              qb
                .selectFrom("Event")
                .select("id")
                .where("relayedAt", "is", null)
                .orderBy("seq")
                .limit(literalInt(Math.max(1, Math.trunc(batchSize))))
                .forUpdate()
                .skipLocked(),
            ),
          )
          .returning(["id", "seq", "customerId", "eventType", "payload", "targetSubscriptionId"]),
      )
      .selectFrom("claimed as e")
      .select((eb) => ["e.id", "e.customerId", "e.eventType", "e.payload", someSubscriptionWants(eb).as("hasSubscribers")])
      .orderBy("e.seq"),
  // The batch size is a setting: one text per process.
  { reuse: "value" },
);

/**
 * The events of `cte` (a data-modifying CTE of the same statement returning an event's id,
 * customerId, eventType and targetSubscriptionId) that some subscription wants now, as the claim's
 * hasSubscribers decides: a query for a CTE of a writer that publishes its own events
 * (publishCommittedEvents), which leaves these to the relay.
 */
export function subscribedEventsIn(cte: string) {
  return qb.selectFrom(cteRows<EventColumns, "e">(cte, "e")).select("e.id").where(someSubscriptionWants);
}

/**
 * Marks events relayed that their writer published itself after its commit (publishCommittedEvents).
 * One a relay claimed meanwhile keeps the relay's time (coalesce). Found by key alone: a condition on
 * relayedAt let the planner add the partial index of the unrelayed events to the lookup (a BitmapAnd),
 * and that index holds an entry for every event marked since the last vacuum: 0.51 ms a call on
 * average over a bench run, against 0.07 ms by key (bench/README.md round 11).
 *
 * The ids are a list of parameters (keyList), so that PostgreSQL keeps the statement's generic plan
 * instead of planning every call.
 *
 * Locks: the events' rows, by the UPDATE, until the statement commits (it runs alone); a relay's
 * claim of the same rows is waited for, and then they are found relayed. Commits without waiting for
 * the disk (commitsWithoutWaitingForDisk).
 */
export const markEventsRelayedSql = defineStatement(
  "mark-events-relayed",
  { events: keyList(["00000000-0000-4000-8000-000000000000"]) },
  ({ events }) =>
    qb
      .updateTable("Event")
      .set((eb) => ({ relayedAt: eb.fn.coalesce("relayedAt", eb.fn<Date>("clock_timestamp")) }))
      .where("id", "in", keysOf(events))
      // Lost in a crash, the events are published again under the same job ids: no wait for the disk.
      .where(commitsWithoutWaitingForDisk),
  { reuse: "shape" },
);

/** markEventsRelayedSql's arguments for `ids` (at least one). */
export const markRelayedArgs = (ids: readonly string[]) => ({ events: keyList(ids) });

import { anyOf, defineStatement, jsonInt, keyList, keysOf, qb, type DB, type ExpressionBuilder } from "@esign/db";
import { subscriptionMatchesEvent } from "@esign/webhooks";

/** The columns an attempt needs, of a delivery `d`, its subscription `s` and its event `e`. */
type AttemptTables = {
  d: Pick<DB["WebhookDelivery"], "id" | "eventId" | "state" | "attempts" | "ladderStep" | "nextAttemptAt" | "caseFileId">;
  s: DB["WebhookSubscription"];
  e: DB["Event"];
};

function attemptColumns(eb: ExpressionBuilder<AttemptTables, "d" | "s" | "e">) {
  return [
    eb.ref("d.id").as("deliveryId"),
    eb.ref("d.eventId").as("eventId"),
    eb.ref("d.state").as("state"),
    eb.ref("d.attempts").as("attempts"),
    eb.ref("d.ladderStep").as("ladderStep"),
    eb.ref("d.nextAttemptAt").as("nextAttemptAt"),
    eb.ref("s.id").as("subscriptionId"),
    eb.ref("s.endpoint").as("endpoint"),
    eb.ref("s.secretEnc").as("secretEnc"),
    eb.ref("s.previousSecretEnc").as("previousSecretEnc"),
    eb.ref("s.previousSecretExpiresAt").as("previousSecretExpiresAt"),
    eb.ref("s.maxPerSecond").as("maxPerSecond"),
    eb.ref("s.ordered").as("ordered"),
    eb.ref("d.caseFileId").as("caseFileId"),
    eb.ref("s.isActive").as("isActive"),
    eb.ref("s.deletedAt").as("deletedAt"),
    eb.ref("e.id").as("eventRowId"),
    eb.ref("e.eventType").as("eventType"),
    eb.ref("e.payload").as("payload"),
    eb.ref("e.occurredAt").as("occurredAt"),
  ] as const;
}

/**
 * The case file an event is about, for ordered subscriptions: the payload's `id` of a casefile event,
 * its `caseFile.id` of a signer event (the catalog's payloads, packages/schema); null for any other.
 */
function caseFileOfEvent(eb: ExpressionBuilder<{ e: DB["Event"] }, "e">) {
  return eb
    .case()
    .when("e.topic", "=", "casefile")
    .then(jsonInt(eb.ref("e.payload"), "id"))
    .when("e.topic", "=", "signer")
    .then(jsonInt(eb.ref("e.payload"), "caseFile", "id"))
    .end()
    .as("caseFileId");
}

const SAMPLE_ID = "00000000-0000-4000-8000-000000000000";

/**
 * Deliveries with their subscription and event, by id: what their next attempts need.
 *
 * Locks: nothing: an attempt's record re-checks the delivery's state under its row lock
 * (record-attempt.sql.ts), so a delivery changed after this read is recorded as such.
 */
export const loadAttemptsSql = defineStatement(
  "load-delivery-attempts",
  { deliveryIds: [SAMPLE_ID] as readonly string[] },
  ({ deliveryIds }) =>
    qb
      .selectFrom("WebhookDelivery as d")
      .innerJoin("WebhookSubscription as s", "s.id", "d.subscriptionId")
      .leftJoin("Event as e", "e.id", "d.eventId")
      .select((eb) => attemptColumns(eb as unknown as ExpressionBuilder<AttemptTables, "d" | "s" | "e">))
      .where("d.id", "=", anyOf(deliveryIds, "uuid")),
  { reuse: "shape" },
);

/**
 * Fans events out and reads back what their attempts need, in one statement (see fanOutAndLoad):
 * a delivery per matching subscription (the unique (eventId, subscriptionId) keeps one on a second
 * run), then the new and earlier pending deliveries of each event, in the events' outbox order.
 *
 * The event ids are a list of parameters (keyList: padded with repeats, which both IN lists ignore),
 * so that PostgreSQL keeps the statement's generic plan: with one uuid[] parameter it planned every
 * call (309 us a call over a dispatch bench run).
 *
 * Locks: the new deliveries' rows and their (eventId, subscriptionId) unique index entries, until
 * the statement commits (it runs alone): a second fan-out of the same events waits on them, then
 * inserts nothing (ON CONFLICT DO NOTHING) and reads the deliveries the first one made.
 */
export const fanOutAndLoadSql = defineStatement(
  "fan-out-and-load-deliveries",
  { events: keyList([SAMPLE_ID]), pendingState: "pending", now: new Date(0) },
  ({ events, pendingState, now }) =>
    qb
      .with("e", (db) => db.selectFrom("Event").selectAll().where("id", "in", keysOf(events)))
      .with("matching", (db) =>
        db
          .selectFrom("WebhookSubscription as s")
          .innerJoin("e", (join) => join.on(subscriptionMatchesEvent))
          .select((eb) => ["e.id as eventId", "s.id as subscriptionId", caseFileOfEvent(eb as unknown as ExpressionBuilder<{ e: DB["Event"] }, "e">)]),
      )
      .with("created", (db) =>
        db
          .insertInto("WebhookDelivery")
          .columns(["id", "eventId", "subscriptionId", "caseFileId", "state", "nextAttemptAt", "createdAt", "updatedAt"])
          .expression((eb) =>
            eb
              .selectFrom("matching as m")
              .select((s) => [
                s.fn<string>("gen_random_uuid").as("id"),
                "m.eventId",
                "m.subscriptionId",
                "m.caseFileId",
                s.cast<string>(s.val(pendingState), "text").as("state"),
                s.cast<Date>(s.val(now), "timestamptz").as("nextAttemptAt"),
                s.cast<Date>(s.val(now), "timestamptz").as("createdAt"),
                s.cast<Date>(s.val(now), "timestamptz").as("updatedAt"),
              ])
              // In key order: two overlapping batches (a drain re-run after a crash) then wait for each
              // other on the unique index instead of deadlocking.
              .orderBy("m.eventId")
              .orderBy("m.subscriptionId"),
          )
          .onConflict((oc) => oc.columns(["eventId", "subscriptionId"]).doNothing())
          .returning(["id", "eventId", "state", "attempts", "ladderStep", "nextAttemptAt", "subscriptionId", "caseFileId", "createdAt"]),
      )
      .with("d", (db) =>
        db
          .selectFrom("created")
          .selectAll()
          .unionAll(
            db
              .selectFrom("WebhookDelivery")
              .select(["id", "eventId", "state", "attempts", "ladderStep", "nextAttemptAt", "subscriptionId", "caseFileId", "createdAt"])
              .where("eventId", "in", keysOf(events))
              .where("state", "=", pendingState),
          ),
      )
      .selectFrom("e")
      .leftJoin("d", "d.eventId", "e.id")
      .leftJoin("WebhookSubscription as s", "s.id", "d.subscriptionId")
      .select((eb) => attemptColumns(eb as unknown as ExpressionBuilder<AttemptTables, "d" | "s" | "e">))
      .orderBy("e.seq")
      .orderBy("d.createdAt")
      .orderBy("d.id"),
  { reuse: "shape" },
);

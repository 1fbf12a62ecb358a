import { randomUUID } from "node:crypto";
import { sql, type AliasableExpression, type ExpressionBuilder, type RawBuilder } from "kysely";
import type { PoolClient } from "pg";
import { eventLogRow, logRow, type EventType, type LogRow, type NewEvent, type NewLogEntry } from "@esign/schema";
import type { Tx } from "./create-prisma";
import { qb, type DB } from "./typed-sql/builder";
import { anyRowIn, unnestRowsInOrder } from "./typed-sql/expressions";
import { runCompiled } from "./typed-sql/run";

/** The channel the outbox relay LISTENs on; PostgreSQL delivers the notification at commit. */
export const OUTBOX_CHANNEL = "esign_outbox";

/**
 * An event as the outbox stores it: the event catalog's (packages/schema, event-catalog.ts), so its
 * type is one of the catalog's and its topic and payload are the ones that type has (a union by
 * event type: a case file event cannot carry a signer's payload). Built with the catalog's
 * `caseFileEvent` / `signerEvent` / `testEvent`, never by hand.
 */
export type OutboxEvent = { [T in EventType]: NewEvent<T> }[EventType];

/**
 * The transaction that makes a state change: a Prisma interactive transaction, or the pg client of
 * `withSqlTransaction`. Never a pool: each statement would commit on its own.
 */
export type EventTransaction = Tx | PoolClient;

/**
 * The one way an event enters the outbox. Call it with the transaction that makes the state change,
 * so the event exists if and only if the change committed; the relay publishes it afterwards. The
 * NOTIFY only wakes the relay early: a missed one costs latency, never the event. Answers its id.
 */
export async function emitEvent(tx: EventTransaction, event: OutboxEvent): Promise<string> {
  const [id] = await emitEvents(tx, [event]);
  return id!;
}

/**
 * emitEvent for several events of one transaction: one statement, one NOTIFY (PostgreSQL folds
 * identical notifications of a transaction into one anyway). Their seq follows the array's order.
 * Through Prisma this was a create plus a raw NOTIFY per event (~2-4 ms of CPU each). Statements that
 * write their events inside a larger statement of data-modifying CTEs use `eventInsert` instead.
 */
export async function emitEvents(tx: EventTransaction, events: readonly OutboxEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = serializeEvents(events);
  const statement = qb
    .with("inserted", () => serializedEventInsert(rows))
    .with("logged", () => serializedLogInsert(rows))
    .selectNoFrom(notifyOutboxIfAny("inserted").as("notified"));
  await runCompiled(tx, statement.compile());
  return rows.map((r) => r.id);
}

/**
 * Writes entries of the event log that are no webhook event (a case file sent, a signer edited, a
 * request resent), in the transaction of the change. Webhook events are log entries already.
 */
export async function recordLog(tx: EventTransaction, entries: readonly NewLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await runCompiled(tx, logInsert(entries.map(logRow)).compile());
}

/**
 * The INSERT of `events` (returning their ids), for a data-modifying CTE of a larger statement; with
 * `onlyIfAnyIn` (the name of another CTE of that statement) the events are written only when that CTE
 * touched a row. The statement must also NOTIFY (`notifyOutboxIfAny`) for the relay to wake early.
 * WITH ORDINALITY + ORDER BY: seq (BIGSERIAL) is drawn in the order the rows are inserted.
 * occurredAt is the time of this statement (clock_timestamp), not the column default's start of
 * the transaction: the notifier's transaction spans an SMTP conversation before its event.
 */
export function eventInsert(events: readonly OutboxEvent[], onlyIfAnyIn?: string) {
  const rows = serializeEvents(events);
  return { query: serializedEventInsert(rows, onlyIfAnyIn), log: serializedLogInsert(rows, onlyIfAnyIn), ids: rows.map((r) => r.id) };
}

/**
 * An event with its id drawn and its payload serialized: what a statement that reuses its compiled
 * text (`reuse: "shape"`, typed-sql/reuse.ts) takes, since its build may not draw or transform values.
 */
export interface SerializedEvent {
  id: string;
  customerId: number;
  topic: OutboxEvent["topic"];
  eventType: EventType;
  payloadJson: string;
  targetSubscriptionId: string | null;
  /** The event log entry the event also is (null for the test event). */
  log: LogRow | null;
}

export function serializeEvents(events: readonly OutboxEvent[]): SerializedEvent[] {
  return events.map((e) => ({
    id: randomUUID(),
    customerId: e.customerId,
    topic: e.topic,
    eventType: e.eventType,
    payloadJson: JSON.stringify(e.payload),
    targetSubscriptionId: e.targetSubscriptionId ?? null,
    log: eventLogRow(e),
  }));
}

/**
 * The event log entries of serialized events, for the same statement as their outbox rows (a CTE
 * beside serializedEventInsert's, with the same `onlyIfAnyIn`): the log cannot miss an event.
 */
export function serializedLogInsert(events: readonly SerializedEvent[], onlyIfAnyIn?: string) {
  return logInsert(
    events.flatMap((e) => (e.log ? [e.log] : [])),
    onlyIfAnyIn,
  );
}

/**
 * Events serialized for a statement that reuses its text per shape (`reuse: "shape"`), with the log
 * entries of those that are one set apart: such a build may pass values on but never test one
 * (reuse.ts), so it cannot leave out an event's missing entry itself.
 */
export interface EventRows {
  events: readonly SerializedEvent[];
  logs: readonly LogRow[];
}

export function eventRows(events: readonly OutboxEvent[]): EventRows {
  const serialized = serializeEvents(events);
  return { events: serialized, logs: serialized.flatMap((e) => (e.log ? [e.log] : [])) };
}

/** An EventRows for statements' samples (statements.test.ts prepares each with its sample). */
export const SAMPLE_EVENT_ROWS: EventRows = (() => {
  const log: LogRow = {
    customerId: 1,
    caseFileId: 1,
    signerId: 1,
    code: 4,
    event: "signed",
    actor: "signer",
    userId: null,
    ip: "127.0.0.1",
    userAgent: null,
    detailJson: null,
  };
  const event: SerializedEvent = {
    id: "00000000-0000-4000-8000-000000000000",
    customerId: 1,
    topic: "signer",
    eventType: "sign.signer.signed",
    payloadJson: "{}",
    targetSubscriptionId: null,
    log,
  };
  return { events: [event], logs: [log] };
})();

/**
 * The CTEs that write EventRows inside a larger statement (withCtes): the events as `events`, their
 * log entries as `event_log`, each only when `onlyIfAnyIn` (a CTE's name) has a row. The statement
 * selects `notifyOutboxIfAny("events")` to wake the relay.
 */
export function eventRowsCtes(rows: EventRows, onlyIfAnyIn?: string) {
  return [["events", serializedEventInsert(rows.events, onlyIfAnyIn)] as const, ["event_log", logInsert(rows.logs, onlyIfAnyIn)] as const];
}

/**
 * INSERT of log rows from one parameter per column (one statement text for any number of rows), in
 * the given order; also a data-modifying CTE of a larger statement (the create writes its case file's
 * `created` and `sent` entries before its signers' `requestActivated` ones in one such insert).
 */
export function logInsert(entries: readonly LogRow[], onlyIfAnyIn?: string) {
  const rows = unnestRowsInOrder("l", {
    customerId: { values: entries.map((e) => e.customerId), type: "int" },
    caseFileId: { values: entries.map((e) => e.caseFileId), type: "int" },
    signerId: { values: entries.map((e) => e.signerId), type: "int" },
    code: { values: entries.map((e) => e.code), type: "int" },
    event: { values: entries.map((e) => e.event), type: "text" },
    actor: { values: entries.map((e) => e.actor), type: "text" },
    userId: { values: entries.map((e) => e.userId), type: "int" },
    ip: { values: entries.map((e) => e.ip), type: "text" },
    userAgent: { values: entries.map((e) => e.userAgent), type: "text" },
    detail: { values: entries.map((e) => e.detailJson), type: "jsonb" },
  });
  return qb
    .insertInto("LogEntry")
    .columns(["customerId", "caseFileId", "signerId", "code", "event", "actor", "userId", "ip", "userAgent", "detail", "occurredAt"])
    .expression(
      qb
        .selectFrom(rows)
        .select((eb) => [
          "l.customerId",
          "l.caseFileId",
          "l.signerId",
          "l.code",
          "l.event",
          "l.actor",
          "l.userId",
          "l.ip",
          "l.userAgent",
          "l.detail",
          eb.fn<Date>("clock_timestamp").as("occurredAt"),
        ])
        .$if(onlyIfAnyIn !== undefined, (q) => q.where(anyRowIn(onlyIfAnyIn!)))
        .orderBy("l.ordinal"),
    );
}

/** The columns of the rows an event insert selects from (alias `e`): what decides an event's relayedAt. */
export type EventInsertRow = Pick<DB["Event"], "id" | "customerId" | "eventType" | "targetSubscriptionId">;

/**
 * An event's relayedAt decided in its insert, from its row (alias `e`): see outbox-relay's
 * relayedUnlessSubscribed. Without it an event is inserted unrelayed, for the relay.
 */
export type RelayedAtOf = (eb: ExpressionBuilder<DB & { e: EventInsertRow }, "e">) => AliasableExpression<Date | null>;

/**
 * eventInsert of events already serialized (serializeEvents), returning each event's id and
 * relayedAt (`relayedAt`: decided per row in the insert, else null).
 */
export function serializedEventInsert(events: readonly SerializedEvent[], onlyIfAnyIn?: string, relayedAt?: RelayedAtOf) {
  const rows = unnestRowsInOrder("e", {
    id: { values: events.map((e) => e.id), type: "uuid" },
    customerId: { values: events.map((e) => e.customerId), type: "int" },
    topic: { values: events.map((e) => e.topic), type: "text" },
    eventType: { values: events.map((e) => e.eventType), type: "text" },
    payload: { values: events.map((e) => e.payloadJson), type: "jsonb" },
    targetSubscriptionId: { values: events.map((e) => e.targetSubscriptionId), type: "uuid" },
  });
  const columns = ["id", "customerId", "topic", "eventType", "payload", "targetSubscriptionId", "occurredAt"] as const;
  return qb
    .insertInto("Event")
    .columns(relayedAt ? [...columns, "relayedAt"] : [...columns])
    .expression(
      qb
        .selectFrom(rows)
        .select((eb) => [
          "e.id",
          "e.customerId",
          "e.topic",
          "e.eventType",
          "e.payload",
          "e.targetSubscriptionId",
          eb.fn<Date>("clock_timestamp").as("occurredAt"),
          // The unnest rows carry the Event's columns under the same names: the decision reads them so.
          ...(relayedAt ? [relayedAt(eb as unknown as ExpressionBuilder<DB & { e: EventInsertRow }, "e">).as("relayedAt")] : []),
        ])
        .$if(onlyIfAnyIn !== undefined, (q) => q.where(anyRowIn(onlyIfAnyIn!)))
        .orderBy("e.ordinal"),
    )
    .returning(["id", "relayedAt"]);
}

/** One NOTIFY on the outbox's channel when `condition` holds (as text: Prisma cannot read void). */
const notifyOutboxWhen = (condition: RawBuilder<boolean>): RawBuilder<unknown> => sql`(SELECT pg_notify(${OUTBOX_CHANNEL}::text, '')::text WHERE ${condition})`;

/** `(SELECT pg_notify(...) WHERE EXISTS (SELECT 1 FROM cte))`: one NOTIFY when the CTE `cte` inserted events. */
export function notifyOutboxIfAny(cte: string): RawBuilder<unknown> {
  return notifyOutboxWhen(anyRowIn(cte));
}

/**
 * notifyOutboxIfAny for a CTE of serializedEventInsert with a relayedAt: one NOTIFY when it inserted
 * an event left for the relay; none when every event was relayed at birth (nothing to wake it for).
 */
export function notifyOutboxIfAnyUnrelayed(cte: string): RawBuilder<unknown> {
  return notifyOutboxWhen(sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(cte)} WHERE "relayedAt" IS NULL)`);
}

/**
 * LISTENs on the outbox channel on a connection of its own (a session: the notifications arrive on
 * that connection only, so it must not be a pooled one that a transaction pooler hands around).
 */
export async function listenToOutbox(client: { query(text: string): Promise<unknown> }): Promise<void> {
  await client.query(`LISTEN "${OUTBOX_CHANNEL}"`);
}

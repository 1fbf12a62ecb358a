import { sql, type AliasedRawBuilder, type Expression, type RawBuilder } from "kysely";

/*
 * The only SQL text of the system outside Kysely's builder: small fragments the builder has no
 * words for, reviewed here. Every value in them is a bound parameter; the names pasted in are
 * identifiers from a closed set (the types below) or from the caller's own code, never input.
 */

/** PostgreSQL element types of the arrays passed as one parameter each. */
export type PgElementType = "uuid" | "text" | "int" | "bigint" | "boolean" | "timestamptz" | "jsonb";

/** A JS array as one typed parameter: `$n::type[]` (PostgreSQL cannot infer the type of an unnest argument). */
export function typedArray<T>(values: readonly T[], type: PgElementType): RawBuilder<T[]> {
  return sql<T[]>`${values}::${sql.raw(type)}[]`;
}

/** An array parameter compared with `= ANY(...)`, typed: `ANY($n::type[])`. */
export function anyOf<T>(values: readonly T[], type: PgElementType): RawBuilder<T> {
  return sql<T>`ANY(${typedArray(values, type)})`;
}

type UnnestColumns<R> = { [K in keyof R]: { values: readonly R[K][]; type: PgElementType } };

/**
 * Rows from parallel arrays, one parameter per column: `unnest($1::uuid[], $2::text[], ...) AS
 * alias(col, ...)`. A batch of any size is one statement of the same text (one plan), and its
 * values are never spliced in.
 */
export function unnestRows<R extends Record<string, unknown>, A extends string>(alias: A, columns: UnnestColumns<R>): AliasedRawBuilder<R, A> {
  const names = Object.keys(columns) as (keyof R & string)[];
  const args = sql.join(names.map((name) => typedArray(columns[name].values, columns[name].type)));
  const aliasWithColumns = sql`${sql.id(alias)}(${sql.join(names.map((n) => sql.id(n)))})`;
  return sql<R>`unnest(${args})`.as<A>(aliasWithColumns);
}

/**
 * unnestRows plus each row's position (1-based) in `ordinal`: `WITH ORDINALITY`. An INSERT ... SELECT
 * ordered by it draws serial values (the outbox's seq) in the arrays' order.
 */
export function unnestRowsInOrder<R extends Record<string, unknown>, A extends string>(
  alias: A,
  columns: UnnestColumns<R>,
): AliasedRawBuilder<R & { ordinal: string }, A> {
  const names = Object.keys(columns) as (keyof R & string)[];
  const args = sql.join(names.map((name) => typedArray(columns[name].values, columns[name].type)));
  const aliasWithColumns = sql`${sql.id(alias)}(${sql.join([...names, "ordinal"].map((n) => sql.id(n)))})`;
  return sql<R & { ordinal: string }>`unnest(${args}) WITH ORDINALITY`.as<A>(aliasWithColumns);
}

/** An integer pasted as a literal: for statements sent without parameters (a transaction's opening). */
export function literalInt(n: number): RawBuilder<number> {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return sql.lit(n);
}

// What a text literal may hold: letters, digits and the separators of the keys and ids pasted (a
// dedupe key `request:12:<uuid>`, an address). Nothing here needs quoting or escaping, whatever the
// server's standard_conforming_strings; anything else is refused, and the caller sends a parameter.
const PASTEABLE_TEXT = /^[A-Za-z0-9:._@/-]{0,200}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` may be pasted as a literal (literalText); otherwise send it as a parameter. */
export const isPasteableText = (text: string): boolean => PASTEABLE_TEXT.test(text);

/** A short text of a safe alphabet pasted as a literal (for a transaction's opening); throws on anything else. */
export function literalText(text: string): RawBuilder<string> {
  if (!isPasteableText(text)) throw new Error("not a pasteable text literal");
  return sql.lit(text);
}

/** A uuid pasted as a literal (for a transaction's opening); throws on anything but a uuid. */
export function literalUuid(id: string): RawBuilder<string> {
  if (!UUID.test(id)) throw new Error("not a uuid");
  return sql<string>`${sql.lit(id)}::uuid`;
}

/** `time - n seconds`: a timestamp `n` seconds before another. */
export function secondsBefore(time: Expression<Date>, n: number): RawBuilder<Date> {
  return sql<Date>`(${time} - ${n}::int * interval '1 second')`;
}

/** `time - days days`, the days an expression (a customer's setting column): `(time - days * interval '1 day')`. */
export function daysBefore(time: Expression<Date>, days: Expression<number>): RawBuilder<Date> {
  return sql<Date>`(${time} - ${days} * interval '1 day')`;
}

/** The next value of a table's serial id column, drawn before the insert (so links and events can name it). */
export function nextId(table: "CaseFile" | "Signer"): RawBuilder<string> {
  // The table's name pasted (one of two constants): a statement drawing ids may be a transaction's opening, which takes no parameters.
  return sql<string>`nextval(pg_get_serial_sequence(${sql.lit(`"${table}"`)}, 'id'))`;
}

/** `count` (a parameter, or a literalInt) of the next serial ids of a table, ascending, as one array. */
export function nextIds(table: "Signer", count: number | RawBuilder<number>): RawBuilder<string[]> {
  return sql<string[]>`ARRAY(SELECT ${nextId(table)} FROM generate_series(1, ${count}::int))`;
}

/** The length of the JSON array at `json -> key`; 0 when that is missing or not an array. */
export function jsonArrayLength(json: Expression<unknown>, key: string): RawBuilder<number> {
  return sql<number>`(CASE WHEN jsonb_typeof(${json} -> ${sql.lit(key)}) = 'array' THEN jsonb_array_length(${json} -> ${sql.lit(key)}) ELSE 0 END)`;
}

/**
 * The id the CTE `cte` (an UPDATE of the creation job returning its id) answers, and otherwise an
 * error that undoes the whole statement: `creation_job_not_claimable` (migration
 * 20261127000000_creation_job_persist_gate) raises SQLSTATE EJ409. A one-statement write that must
 * happen only when its UPDATE found the job (isNotClaimable tells the error apart).
 */
export function idOrNotClaimable(cte: string, jobId: string): RawBuilder<string> {
  return sql<string>`coalesce((SELECT "id" FROM ${sql.table(cte)}), creation_job_not_claimable(${jobId}::uuid))`;
}

/** The error of idOrNotClaimable: the creation job was no longer pending or processing. */
export const isNotClaimable = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === "EJ409";

/**
 * `ANY(ARRAY(subquery))`: the subquery runs once, first (an init plan), and its rows are then looked
 * up one by one. Written as `IN (subquery)` the planner may join the subquery to a sequential scan
 * of the whole table instead, and a prepared statement keeps that plan while the table grows: the
 * outbox relay's claim read every event ever written, 0.5 ms a claim in the bench (bench/README.md).
 */
export function anyOfSubquery<T>(subquery: Expression<Record<string, T>>): RawBuilder<T> {
  return sql<T>`ANY(${arrayOf(subquery)})`;
}

/**
 * A data-modifying CTE of the same statement as a FROM item, `cte AS alias`, with the row type the
 * caller states (what its RETURNING gives): withCtes' CTEs have no table type of their own.
 */
export function cteRows<R, A extends string>(cte: string, alias: A): AliasedRawBuilder<R, A> {
  return sql<R>`${sql.table(cte)}`.as(alias);
}

/** `ARRAY(subquery)`: the one column of a subquery's rows as an array (`{}` when none). */
export function arrayOf<T>(subquery: Expression<Record<string, T>>): RawBuilder<T[]> {
  return sql<T[]>`ARRAY(${subquery})`;
}

/** A text parameter (PostgreSQL cannot infer the type of a parameter a function takes as "any"). */
export function textParam(value: string | null): RawBuilder<string | null> {
  return sql<string | null>`${value}::text`;
}

/** `EXISTS (SELECT 1 FROM cte)`: whether a data-modifying CTE of the same statement touched any row. */
export function anyRowIn(cte: string): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(cte)})`;
}

/** `1`: the column of an EXISTS subquery or of a statement that needs to answer something. */
export const one = sql<number>`1`;

/** `(SELECT column FROM cte)`: a value a data-modifying CTE of the same statement returned (one row). */
export function valueFrom<T>(cte: string, column: string): RawBuilder<T | null> {
  return sql<T | null>`(SELECT ${sql.ref(column)} FROM ${sql.table(cte)})`;
}

/**
 * The rows of a subquery as one JSON array (`[]` when none), in the subquery's order. Kysely has this
 * as a helper too, on an export path that this repository's module resolution cannot reach.
 */
export function jsonArrayFrom<O>(subquery: Expression<O>): RawBuilder<O[]> {
  return sql<O[]>`(SELECT coalesce(json_agg(agg), '[]') FROM ${subquery} AS agg)`;
}

/** `column #>> path`: the text at a path inside a JSON column (the path one text[] parameter). */
export function jsonText(column: Expression<unknown>, ...path: string[]): RawBuilder<string | null> {
  return sql<string | null>`(${column} #>> ${typedArray(path, "text")})`;
}

/** The integer at a path inside a JSON column, or null when there is no number there. */
export function jsonInt(column: Expression<unknown>, ...path: string[]): RawBuilder<number | null> {
  const at = typedArray(path, "text");
  return sql<number | null>`(CASE WHEN jsonb_typeof(${column} #> ${at}) = 'number' THEN (${column} #>> ${at})::numeric::int END)`;
}

/**
 * A timestamp as ISO 8601 in UTC at full microsecond precision (a JS Date keeps milliseconds):
 * for keyset cursors that must name a row's position exactly.
 */
export function isoMicroseconds(column: Expression<Date>): RawBuilder<string> {
  return sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * A condition that is always true and makes the statement's own transaction commit without waiting
 * for its WAL to reach the disk (`synchronous_commit = off` for this transaction only: set_config's
 * `is_local`, read when the transaction commits). For an autocommit statement whose loss in a
 * PostgreSQL crash is harmless because it is redone (a job's claim that a retry claims again, a mark
 * whose absence only makes a relay publish again under the same job ids); a later durable commit
 * flushes it as well. A durable commit cost 130-150 us of the backend's CPU on the bench machine, one
 * without the wait 60-70 us, and 0.35-0.5 ms against 0.1 ms of latency (bench/README.md round 11).
 * Never for what a client was told is done. Evaluated once (an InitPlan), before the rows are read.
 */
export const commitsWithoutWaitingForDisk = sql<boolean>`(SELECT set_config('synchronous_commit', 'off', true)) IS NOT NULL`;

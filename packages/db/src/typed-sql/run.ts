import type { CompiledQuery } from "kysely";
import type { Client, Pool, PoolClient } from "pg";
import type { Tx } from "../create-prisma";
import { preparedNameOn, retireIfStale } from "./prepared";
import type { Statement } from "./statement";

/** Where a statement runs: a pg pool or connection (hot paths, the relay's LISTEN session), or a Prisma transaction or client. */
export type SqlRunner = Pool | PoolClient | Client | Pick<Tx, "$queryRawUnsafe">;

const isPrisma = (on: SqlRunner): on is Pick<Tx, "$queryRawUnsafe"> => "$queryRawUnsafe" in on;

/**
 * Runs a compiled statement and answers its rows. Through pg, bigint columns come back as strings
 * and timestamps as Date, as the generated Kysely types say; through Prisma bigint comes back as
 * BigInt (only the outbox's seq is one, and no statement run through Prisma selects it).
 */
export async function runCompiled<O>(on: SqlRunner, query: CompiledQuery<O>, repeats = false): Promise<O[]> {
  if (isPrisma(on)) return on.$queryRawUnsafe<O[]>(query.sql, ...query.parameters);
  const values = query.parameters as unknown[];
  // A text that repeats runs as a prepared statement where the pool allows it (prepared.ts).
  const name = repeats ? preparedNameOn(on, query.sql) : undefined;
  if (name === undefined) return (await on.query(query.sql, values)).rows as O[];
  try {
    return (await on.query({ name, text: query.sql, values })).rows as O[];
  } catch (err) {
    // Run again unnamed only outside a transaction (a pool): inside one the error has aborted it,
    // and the caller's retry will find the statement retired.
    if (!retireIfStale(name, err) || !("totalCount" in on)) throw err;
    return (await on.query(query.sql, values)).rows as O[];
  }
}

export function run<A, O>(on: SqlRunner, statement: Statement<A, O>, args: A): Promise<O[]> {
  return runCompiled(on, statement.compile(args), statement.repeats === true);
}

/** The first row, or undefined. */
export async function runOne<A, O>(on: SqlRunner, statement: Statement<A, O>, args: A): Promise<O | undefined> {
  return (await run(on, statement, args))[0];
}

import type { Pool, PoolClient } from "pg";

/** What this process has sent PostgreSQL since it started, when counting is on (countStatements). */
export interface StatementCounts {
  /** Queries sent, each one round trip (a string of several statements, as BEGIN's, is one). */
  roundTrips: number;
  /** Transactions opened: round trips whose text starts with BEGIN (Prisma's and withSqlTransaction's). */
  transactions: number;
}

const counts: StatementCounts = { roundTrips: 0, transactions: 0 };

/** The process's counts so far (all zero unless a pool was given to countStatements). */
export function statementCounts(): Readonly<StatementCounts> {
  return counts;
}

const BEGIN = /^\s*BEGIN\b/i;

function textOf(query: unknown): string | undefined {
  if (typeof query === "string") return query;
  if (typeof query === "object" && query !== null && "text" in query && typeof query.text === "string") return query.text;
  return undefined;
}

/** A pipelined round trip whose text is not its BEGIN's (typed-sql/read-after-opening.ts). */
function opensTransaction(query: unknown): boolean {
  return typeof query === "object" && query !== null && "opensTransaction" in query && query.opensTransaction === true;
}

/**
 * Counts every query sent on the pool's connections (the benchmark's round trips per case file and
 * per delivery, bench/README.md "Round trips"). Opt-in (DB_STATEMENT_METRICS): without it no
 * connection is wrapped and nothing is counted. Every query, Prisma's as well as typed SQL's, goes
 * through a pooled client's `query` (pool.query checks one out and calls it), so wrapping each client
 * as the pool opens it sees them all.
 */
export function countStatements(pool: Pool): void {
  pool.on("connect", (client: PoolClient) => {
    const send = client.query;
    const counted = function (this: PoolClient, ...args: unknown[]) {
      counts.roundTrips += 1;
      const text = textOf(args[0]);
      if ((text !== undefined && BEGIN.test(text)) || opensTransaction(args[0])) counts.transactions += 1;
      return (send as (...a: unknown[]) => unknown).apply(this, args);
    };
    client.query = counted as PoolClient["query"];
  });
}

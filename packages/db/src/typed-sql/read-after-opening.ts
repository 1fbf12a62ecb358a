import type { CompiledQuery } from "kysely";
import { Query, type PoolClient, type QueryConfig, type QueryResult, type QueryResultRow } from "pg";
import type { Wire } from "./pg-wire";
import { preparedNameOn, retireIfStale } from "./prepared";
import { runCompiled } from "./run";
import type { Statement } from "./statement";

/*
 * A transaction's opening (BEGIN, its settings, a lock) and its first read in one round trip, the read
 * still a prepared statement. PostgreSQL's extended protocol runs every message up to a Sync in order
 * (after an error it skips the rest up to the Sync): Parse/Bind/Describe/Execute of each opening
 * statement, then Bind/Describe/Execute of the read, then one Sync. The read's snapshot is taken when
 * its portal is bound, which PostgreSQL does only after the statements before it finished: a read after
 * a lock sees what the lock's previous holder committed (the notifier's dedupe key, issue 25).
 *
 * Pasted into the opening's text instead (the simple query protocol has no parameters), the read would
 * be parsed and planned at every call; here it keeps its prepared plan. Each round trip cost 35-45 us
 * of CPU on each side on the bench machine, and a wake-up of the other process each way (bench/README.md
 * round 11). Where a pg version lacks the hooks, the opening and the read go in two round trips.
 */

/** A statement with parameters to run first in withSqlTransaction's transaction, in BEGIN's round trip. */
export interface FirstRead<O> {
  query: CompiledQuery<O>;
  repeats: boolean;
}

/** The read withSqlTransaction's `firstRead` runs: `statement` with `args`. */
export function firstRead<A, O>(statement: Statement<A, O>, args: A): FirstRead<O> {
  return { query: statement.compile(args), repeats: statement.repeats === true };
}

/** What of pg's Query this file uses beyond its type declarations (pg/lib/query.js). */
interface QueryInternals {
  name?: string;
  text: string;
  hasBeenParsed(connection: Wire): boolean;
  prepare(connection: Wire): void;
}

const queryInternals = Query.prototype as unknown as Partial<QueryInternals>;
const PIPELINES = typeof queryInternals.prepare === "function" && typeof queryInternals.hasBeenParsed === "function";

class AfterOpening extends Query {
  /** statement-counts.ts: this round trip opens a transaction although its text is the read's. */
  readonly opensTransaction = true;

  constructor(
    config: QueryConfig,
    private readonly opening: readonly string[],
    callback: (err: Error | undefined, result: unknown) => void,
  ) {
    super(config, undefined, callback);
  }

  // pg's Query.prepare sends the read's Parse (unless this connection has it), Bind, Describe, then
  // Execute and Sync; the opening goes before its Bind. A named read's Parse goes first of all: pg
  // marks the query's statement parsed on the first ParseComplete that arrives, whichever Parse it
  // answers, so a failure after an opening statement's ParseComplete must not leave the read marked
  // parsed when its Parse was skipped. (A protocol-level prepared statement outlives a rollback.)
  prepare(connection: Wire): void {
    const self = this as unknown as QueryInternals;
    if (self.name && !self.hasBeenParsed(connection)) {
      connection.parse({ text: self.text, name: self.name });
      connection.submittedNamedStatements[self.name] = self.text;
    }
    for (const text of this.opening) {
      connection.parse({ text, name: "" });
      connection.bind({ portal: "", statement: "", values: [] });
      connection.describe({ type: "P", name: "" });
      connection.execute({ portal: "" });
    }
    (queryInternals as QueryInternals).prepare.call(this, connection);
  }
}

/**
 * Sends the opening statements (no parameters) and then the read, in one round trip, and answers the
 * read's rows. A failure anywhere rejects; the transaction, if BEGIN ran, is then aborted, and
 * withSqlTransaction's ROLLBACK ends it.
 */
export async function readAfterOpening<O>(client: PoolClient, opening: readonly string[], read: FirstRead<O>): Promise<O[]> {
  if (!PIPELINES) {
    await client.query(opening.join("; "));
    return runCompiled(client, read.query, read.repeats);
  }
  const { sql, parameters } = read.query;
  const name = read.repeats ? preparedNameOn(client, sql) : undefined;
  try {
    const answered = await new Promise<QueryResult<QueryResultRow> | QueryResult<QueryResultRow>[]>((resolve, reject) => {
      // Always the extended protocol (pg's Query reads queryMode; its type declarations lack it).
      const config: QueryConfig & { queryMode: "extended" } = {
        ...(name === undefined ? {} : { name }),
        text: sql,
        values: parameters as unknown[],
        queryMode: "extended",
      };
      const query = new AfterOpening(config, opening, (err, result) =>
        err ? reject(err) : resolve(result as QueryResult<QueryResultRow> | QueryResult<QueryResultRow>[]),
      );
      void client.query(query);
    });
    // One result per opening statement, then the read's.
    const results = Array.isArray(answered) ? answered : [answered];
    return (results.at(-1)?.rows ?? []) as O[];
  } catch (err) {
    // The next transaction's read is sent unnamed if the plan no longer fits (prepared.ts).
    if (name !== undefined) retireIfStale(name, err);
    throw err;
  }
}

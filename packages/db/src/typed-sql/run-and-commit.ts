import { Query, type PoolClient, type QueryConfig, type QueryResult, type QueryResultRow } from "pg";
import type { Wire } from "./pg-wire";
import { preparedNameOn } from "./prepared";
import { runCompiled } from "./run";
import type { Statement } from "./statement";

/*
 * A transaction's last statement and its COMMIT in one round trip. PostgreSQL's extended protocol
 * runs every message up to a Sync in order, and after an error skips the rest up to the Sync: so
 * Parse/Bind/Execute of the statement, then of COMMIT, then one Sync, either commit both or run
 * neither (the transaction is then aborted, and the caller's ROLLBACK ends it). Each round trip
 * cost 35-45 us of CPU on each side on the bench machine, a wake-up of the other process each way
 * (bench/README.md round 11).
 *
 * pg has no pipelining of its own. Its Query sends Parse, Bind and Describe, then calls `_getRows`
 * to send Execute and Sync, all inside one corked write (pg/lib/query.js); ThenCommit adds COMMIT's
 * messages before that Sync. Where a pg version lacks that hook, the COMMIT goes in a round trip of
 * its own, as before.
 */

const PIPELINES = typeof (Query.prototype as unknown as Record<string, unknown>)._getRows === "function";

class ThenCommit extends Query {
  // Called by pg's Query.prepare once Parse/Bind/Describe of the statement are queued, to send its
  // Execute and Sync; the COMMIT goes in between (unnamed statement and portal, no parameters).
  _getRows(connection: Wire, rows: number | undefined): void {
    if (rows !== undefined) throw new Error("runAndCommit reads every row: no row count");
    connection.execute({ portal: "" });
    connection.parse({ text: "COMMIT", name: "" });
    connection.bind({ portal: "", statement: "", values: [] });
    connection.execute({ portal: "" });
    connection.sync();
  }
}

/** Connections whose transaction runAndCommit ended: withSqlTransaction sends no COMMIT of its own. */
const committed = new WeakSet<PoolClient>();

/** Whether runAndCommit has ended this connection's transaction (withSqlTransaction's check). */
export function endedByRunAndCommit(client: PoolClient): boolean {
  return committed.has(client);
}

/** Forgets the mark once the transaction is over (withSqlTransaction's finally). */
export function clearRunAndCommit(client: PoolClient): void {
  committed.delete(client);
}

/**
 * Runs `statement` as the last one of withSqlTransaction's transaction on `client` and commits, in one
 * round trip; answers the statement's rows once the commit succeeded. Nothing may run on `client`
 * after it: the transaction is over (withSqlTransaction then sends no COMMIT). A failure of the
 * statement or of the commit rejects, and withSqlTransaction's ROLLBACK ends what is left.
 */
export async function runAndCommit<A, O>(client: PoolClient, statement: Statement<A, O>, args: A): Promise<O[]> {
  const compiled = statement.compile(args);
  committed.add(client);
  if (!PIPELINES) {
    const rows = await runCompiled(client, compiled, statement.repeats === true);
    await client.query("COMMIT");
    return rows;
  }
  const { sql, parameters } = compiled;
  const values = parameters as unknown[];
  const name = statement.repeats === true ? preparedNameOn(client, sql) : undefined;
  const results = await new Promise<QueryResult<QueryResultRow> | QueryResult<QueryResultRow>[]>((resolve, reject) => {
    // Always the extended protocol, parameters or not: only it carries the COMMIT before the Sync
    // (pg's Query reads queryMode; its type declarations lack it).
    const config: QueryConfig & { queryMode: "extended" } = { ...(name === undefined ? {} : { name }), text: sql, values, queryMode: "extended" };
    const query = new ThenCommit(config, (err, result) =>
      err ? reject(err) : resolve(result as unknown as QueryResult<QueryResultRow> | QueryResult<QueryResultRow>[]),
    );
    void client.query(query);
  });
  // One result for the statement, one for COMMIT.
  const first = Array.isArray(results) ? results[0] : results;
  return (first?.rows ?? []) as O[];
}

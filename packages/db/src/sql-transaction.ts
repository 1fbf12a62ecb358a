import type { CompiledQuery } from "kysely";
import type { Pool, PoolClient, QueryResult, QueryResultRow } from "pg";
import { readAfterOpening, type FirstRead } from "./typed-sql/read-after-opening";
import { clearRunAndCommit, endedByRunAndCommit } from "./typed-sql/run-and-commit";

export interface SqlTransactionOptions<R extends QueryResultRow = QueryResultRow> {
  /**
   * PostgreSQL ends the session (releasing the transaction's locks) when it sits idle in the
   * transaction this long, e.g. while the caller waits on something else that hangs.
   */
  idleTimeoutMs?: number;
  /**
   * A first statement without parameters, sent in BEGIN's round trip (simple query protocol); `fn`
   * gets its rows. Saves a round trip where the transaction opens with a fixed query (the outbox
   * relay's claim, which runs hundreds of times a second under load).
   */
  opening?: CompiledQuery;
  /**
   * A statement with parameters (firstRead()) run after BEGIN, the settings and the opening, in the
   * same round trip (extended protocol, still prepared: typed-sql/read-after-opening.ts); `fn` gets
   * its rows instead of the opening's. Saves a round trip where the transaction's first step is a
   * read, as the notifier's message (a lock, then the signer).
   */
  firstRead?: FirstRead<R>;
  /**
   * Every prepared statement of the transaction runs its generic plan (SET LOCAL plan_cache_mode),
   * planned once per connection instead of at each call. For transactions whose statements look rows
   * up by key and insert from arrays: with an array parameter (unnest, = ANY) PostgreSQL's generic plan
   * assumes 10-100 elements, so a call with one or two always found its own plan cheaper and was
   * planned again (the notifier's message insert: 212 us of planning a call, more than its execution;
   * bench/README.md round 15). Not for a statement whose best plan depends on its values.
   */
  genericPlans?: boolean;
}

/**
 * Runs `fn` in one transaction on one pooled connection: BEGIN, COMMIT (or fn's runAndCommit), ROLLBACK
 * when `fn` throws. `fn` gets the rows of the firstRead, else of the opening, else none.
 * A connection whose ROLLBACK fails, or that PostgreSQL ended, is discarded rather than handed to the
 * next caller.
 */
export async function withSqlTransaction<T, R extends QueryResultRow = QueryResultRow>(
  pool: Pool,
  fn: (client: PoolClient, firstRows: R[]) => Promise<T>,
  options: SqlTransactionOptions<R> = {},
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A checked-out connection has no listener of the pool's: PostgreSQL ending the session while this
  // transaction waits between statements (a restart, a failover; the relay waits on Redis here) would
  // be an unhandled 'error' and end the process. The statement in flight fails on its own; the
  // connection is discarded on release instead of going back to the pool.
  const onError = (err: Error) => {
    broken ??= err;
  };
  client.on("error", onError);
  try {
    const idle = options.idleTimeoutMs;
    // One round trip for all of them (simple query protocol); the setting ends with the transaction.
    const statements = ["BEGIN"];
    if (idle !== undefined) statements.push(`SET LOCAL idle_in_transaction_session_timeout = ${Math.max(1, Math.trunc(idle))}`);
    if (options.genericPlans === true) statements.push("SET LOCAL plan_cache_mode = force_generic_plan");
    if (options.opening !== undefined) {
      // The simple query protocol has no parameters: a value would have to be pasted in.
      if (options.opening.parameters.length > 0) throw new Error("a transaction's opening statement takes no parameters");
      statements.push(options.opening.sql);
    }
    let rows: R[];
    if (options.firstRead !== undefined) rows = await readAfterOpening(client, statements, options.firstRead);
    else {
      // Several statements in one string answer with one result each.
      const answered: QueryResult<R> | QueryResult<R>[] = await client.query<R>(statements.join("; "));
      const results = Array.isArray(answered) ? answered : [answered];
      rows = options.opening !== undefined ? (results.at(-1)?.rows ?? []) : [];
    }
    const result = await fn(client, rows);
    // Unless fn's last statement carried the COMMIT (runAndCommit).
    if (!endedByRunAndCommit(client)) await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch((rollbackErr: unknown) => {
      broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
    });
    throw err;
  } finally {
    clearRunAndCommit(client);
    client.removeListener("error", onError);
    client.release(broken);
  }
}

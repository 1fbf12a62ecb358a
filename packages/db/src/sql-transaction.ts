import type { Pool, PoolClient } from "pg";

export interface SqlTransactionOptions {
  /**
   * PostgreSQL ends the session (releasing the transaction's locks) when it sits idle in the
   * transaction this long, e.g. while the caller waits on something else that hangs.
   */
  idleTimeoutMs?: number;
}

/**
 * Runs `fn` in one transaction on one pooled connection: BEGIN, COMMIT, ROLLBACK when `fn` throws.
 * A connection whose ROLLBACK fails is discarded rather than handed to the next caller.
 */
export async function withSqlTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>, options: SqlTransactionOptions = {}): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const idle = options.idleTimeoutMs;
    // One round trip for both (simple query protocol); the setting ends with the transaction.
    await client.query(idle !== undefined ? `BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${Math.max(1, Math.trunc(idle))}` : "BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch((rollbackErr: unknown) => {
      broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
    });
    throw err;
  } finally {
    client.release(broken);
  }
}

import { Pool } from "pg";
import { prepareStatements } from "@esign/db";

/**
 * How PostgreSQL planned a prepared statement: runs `calls` on a pool of one connection (so that its
 * prepared statements are the calls'), then reads that connection's pg_prepared_statements for the
 * statements whose text starts with `textStart`. A statement planned at every call shows only
 * custom plans; one whose plan is kept shows generic plans after its first five calls.
 */
export async function planCounts(
  databaseUrl: string,
  textStart: string,
  calls: (pool: Pool) => Promise<void>,
): Promise<{ generic_plans: string; custom_plans: string }[]> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  prepareStatements(pool);
  try {
    await calls(pool);
    const { rows } = await pool.query<{ generic_plans: string; custom_plans: string }>(
      "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE starts_with(statement, $1) ORDER BY prepare_time",
      [textStart],
    );
    return rows;
  } finally {
    await pool.end();
  }
}

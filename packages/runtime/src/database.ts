import { countStatements, createPrisma, prepareStatements, sqlPool, statementCounts, typedSqlStats, type Db } from "@esign/db";
import { statementMetrics } from "./metrics/statement-metrics";
import { typedSqlMetrics } from "./metrics/typed-sql-metrics";

/**
 * The process's PostgreSQL: one Prisma client over a pool of at most `poolSize` connections (unset:
 * 10), with what building its typed SQL statements costs exposed on /metrics, and with
 * `countStatements` its round trips and transactions too (DB_STATEMENT_METRICS). Every service opens
 * its database here, so none can forget the figures the benchmark reads (bench/README.md, "Typed SQL",
 * "Round trips").
 */
export function openDatabase(databaseUrl: string, poolSize: number | undefined, options: { countStatements?: boolean; preparedStatements?: boolean } = {}): Db {
  const db = createPrisma(databaseUrl, poolSize);
  if (options.preparedStatements) prepareStatements(sqlPool(db));
  typedSqlMetrics(typedSqlStats);
  if (options.countStatements) {
    countStatements(sqlPool(db));
    statementMetrics(statementCounts);
  }
  return db;
}

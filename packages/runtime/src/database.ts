import { createPrisma, typedSqlStats, type Db } from "@esign/db";
import { typedSqlMetrics } from "./metrics/typed-sql-metrics";

/**
 * The process's PostgreSQL: one Prisma client over a pool of at most `poolSize` connections (unset:
 * 10), with what building its typed SQL statements costs exposed on /metrics. Every service opens its
 * database here, so none can forget the figures the benchmark reads (bench/README.md, "Typed SQL").
 */
export function openDatabase(databaseUrl: string, poolSize: number | undefined): Db {
  const db = createPrisma(databaseUrl, poolSize);
  typedSqlMetrics(typedSqlStats);
  return db;
}

import type { Registry } from "prom-client";
import { gauge, metricsRegistry } from "./registry";

export const STATEMENT_METRIC_NAMES = { roundTrips: "esign_db_round_trips", transactions: "esign_db_transactions" } as const;

/**
 * Exposes the queries and transactions this process has sent PostgreSQL since it started
 * (`statementCounts` of @esign/db; only with DB_STATEMENT_METRICS). The benchmark reads them before
 * and after a number of case files or deliveries (bench/README.md, "Round trips").
 */
export function statementMetrics(read: () => { roundTrips: number; transactions: number }, registry: Registry = metricsRegistry()): void {
  gauge(
    {
      name: STATEMENT_METRIC_NAMES.roundTrips,
      help: "Queries sent to PostgreSQL since the process started (each one round trip)",
      collect() {
        this.set(read().roundTrips);
      },
    },
    registry,
  );
  gauge(
    {
      name: STATEMENT_METRIC_NAMES.transactions,
      help: "Transactions opened on PostgreSQL since the process started",
      collect() {
        this.set(read().transactions);
      },
    },
    registry,
  );
}

import type { Registry } from "prom-client";
import { gauge, metricsRegistry } from "./registry";

export const TYPED_SQL_METRIC_NAMES = { compiles: "esign_typed_sql_compiles", compileSeconds: "esign_typed_sql_compile_seconds" } as const;

/**
 * Exposes what building and compiling typed SQL statements has cost this process since it started
 * (`typedSqlStats` of @esign/db, which `openDatabase` passes in).
 * Read beside process_cpu_seconds_total it says what share of a service's CPU goes to it; the
 * benchmark reads it so (bench/README.md, "Typed SQL").
 */
export function typedSqlMetrics(read: () => Record<string, { compiles: number; compileSeconds: number }>, registry: Registry = metricsRegistry()): void {
  gauge(
    {
      name: TYPED_SQL_METRIC_NAMES.compiles,
      help: "Typed SQL statements built and compiled since the process started",
      labelNames: ["statement"],
      collect() {
        for (const [statement, s] of Object.entries(read())) if (s.compiles > 0) this.set({ statement }, s.compiles);
      },
    },
    registry,
  );
  gauge(
    {
      name: TYPED_SQL_METRIC_NAMES.compileSeconds,
      help: "Seconds (wall time) spent building and compiling typed SQL statements since the process started",
      labelNames: ["statement"],
      collect() {
        for (const [statement, s] of Object.entries(read())) if (s.compiles > 0) this.set({ statement }, s.compileSeconds);
      },
    },
    registry,
  );
}

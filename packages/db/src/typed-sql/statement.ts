import type { Compilable, CompiledQuery } from "kysely";
import { memoizedCompile, pastingCompile, reusingCompile } from "./reuse";

/**
 * A named SQL statement of the system: how it is built from its arguments, and sample arguments
 * for the test that prepares every statement against the migrated schema
 * (packages/db/test/statements.test.ts). Statements are defined in `*.sql.ts` files only, so that
 * the test (which loads every such file) sees them all.
 */
export interface Statement<A, O> {
  readonly name: string;
  readonly sample: A;
  compile(args: A): CompiledQuery<O>;
  /** Its text repeats call after call (reuse "shape" or "value"): it may run as a prepared statement (prepared.ts). */
  readonly repeats?: boolean;
}

const registry = new Map<string, Statement<never, unknown>>();

/** What building and compiling statements has cost this process since it started, by statement name. */
export type TypedSqlStats = Record<string, { compiles: number; compileSeconds: number }>;

const stats: TypedSqlStats = {};

/**
 * What compiling costs (tens to hundreds of microseconds per call where a statement is built anew;
 * `pnpm bench --only sql`), counted so a service's /metrics shows it next to its CPU time
 * (esign_typed_sql_compile_seconds beside process_cpu_seconds_total).
 */
export function typedSqlStats(): TypedSqlStats {
  return Object.fromEntries(Object.entries(stats).map(([name, s]) => [name, { ...s }]));
}

export interface StatementOptions {
  /**
   * Reuse of the compiled text (reuse.ts): "shape" for a statement whose text depends only on its
   * arguments' shape (every value passed on to the builder untouched), "value" for one whose
   * arguments are a few settings (a batch size pasted as a literal), "pasted" for one whose values
   * are all pasted as literals (a transaction's opening: literalInt, literalText, literalUuid); by
   * default it is built per call.
   */
  reuse?: "shape" | "value" | "pasted";
}

export function defineStatement<A, O>(name: string, sample: A, build: (args: A) => Compilable<O>, options: StatementOptions = {}): Statement<A, O> {
  if (registry.has(name)) throw new Error(`SQL statement "${name}" is defined twice`);
  const own = { compiles: 0, compileSeconds: 0 };
  stats[name] = own;
  const compileOnce =
    options.reuse === "shape"
      ? reusingCompile(name, build, process.env.NODE_ENV === "test")
      : options.reuse === "value"
        ? memoizedCompile(build)
        : options.reuse === "pasted"
          ? pastingCompile(name, build, process.env.NODE_ENV === "test")
          : (args: A) => build(args).compile();
  const compile = (args: A) => {
    // Wall time (no system call): on a machine with a free core it is the compile's CPU time; on a
    // saturated one it also counts the time the process waited for a core. process.cpuUsage() was
    // no better: it is the whole process's, so other threads' work in the window counted too.
    const started = performance.now();
    try {
      return compileOnce(args);
    } finally {
      own.compiles++;
      own.compileSeconds += (performance.now() - started) / 1000;
    }
  };
  const statement: Statement<A, O> = { name, sample, compile, repeats: options.reuse === "shape" || options.reuse === "value" };
  registry.set(name, statement as Statement<never, unknown>);
  return statement;
}

/** Every statement defined so far (those of the `*.sql.ts` files loaded). */
export function definedStatements(): Statement<unknown, unknown>[] {
  return [...registry.values()] as Statement<unknown, unknown>[];
}

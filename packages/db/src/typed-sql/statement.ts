import type { Compilable, CompiledQuery } from "kysely";

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
}

const registry = new Map<string, Statement<never, unknown>>();

export function defineStatement<A, O>(name: string, sample: A, build: (args: A) => Compilable<O>): Statement<A, O> {
  if (registry.has(name)) throw new Error(`SQL statement "${name}" is defined twice`);
  const statement: Statement<A, O> = { name, sample, compile: (args) => build(args).compile() };
  registry.set(name, statement as Statement<never, unknown>);
  return statement;
}

/** Every statement defined so far (those of the `*.sql.ts` files loaded). */
export function definedStatements(): Statement<unknown, unknown>[] {
  return [...registry.values()] as Statement<unknown, unknown>[];
}

import type { Compilable, OperationNodeSource, QueryCreator } from "kysely";
import { qb, type DB } from "./builder";

/** A data-modifying (or selecting) query, for a CTE of a larger statement. */
export type CteQuery = Compilable<unknown> & OperationNodeSource;

/**
 * `WITH name AS (query), ...` of the CTEs given (a falsy entry is left out), for statements whose
 * parts depend on the input - a case file without cc recipients writes none - while staying one
 * statement and one round trip. The CTEs are not referable by name in Kysely's types (their set
 * varies); statements name them only in the fragments of expressions.ts (anyRowIn, notifyOutboxIfAny).
 */
export function withCtes(ctes: ReadonlyArray<readonly [name: string, query: CteQuery] | false | undefined>): QueryCreator<DB> {
  let creator: QueryCreator<DB> = qb;
  for (const cte of ctes) {
    if (!cte) continue;
    const [name, query] = cte;
    // Each `with` widens the creator's table types by the CTE; none is referred to by type here.
    creator = creator.with(name, () => query as never) as unknown as QueryCreator<DB>;
  }
  return creator;
}

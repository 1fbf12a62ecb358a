import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import type { DB } from "../kysely/database";

/**
 * The typed SQL builder: tables and columns are Kysely types generated from prisma/schema.prisma
 * (prisma-kysely), so a renamed column fails the compiler instead of a query at run time, and every
 * value is a bound parameter. Compile-only (Kysely's DummyDriver): it never connects; statements run
 * on the connection the caller already has (a pg client in a hot path's transaction, a Prisma
 * transaction) through run.ts. Prisma stays the owner of the schema and the migrations.
 */
export const qb = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

export type QueryBuilder = typeof qb;
export type { DB } from "../kysely/database";

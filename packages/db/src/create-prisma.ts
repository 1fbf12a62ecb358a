import { PrismaPg } from "@prisma/adapter-pg";
import { Pool } from "pg";
import { PrismaClient, type Prisma } from "./generated/client";

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
export type { Pool as SqlPool, PoolClient as SqlClient } from "pg";

const pools = new WeakMap<PrismaClient, Pool>();

/**
 * Prisma over the pg driver adapter: no native query engine, so it runs on offline machines. The
 * adapter runs on a pg Pool created here, so that hot paths can reach the same connections through
 * `sqlPool(db)`.
 */
export function createPrisma(databaseUrl: string, poolSize: number | undefined = 10): Db {
  const pool = new Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle connection that PostgreSQL ends (a restart, a failover) is reported on the pool; without a
  // listener Node would take that for an unhandled error and exit. The pool has already dropped the
  // connection and opens a new one for the next query; queries in flight fail on their own.
  pool.on("error", () => undefined);
  // $disconnect ends the pool, as it did when the adapter owned it.
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(client, pool);
  return client;
}

/**
 * The pg Pool under a client made by createPrisma. Only for hot paths: a Prisma query costs 1-3 ms
 * of CPU in its query compiler and interpreter (WASM) against ~0.1-0.2 ms for the same statement
 * through pg (bench/README.md, "Profiling"), which decided the throughput of the create endpoint and
 * of webhook deliveries. Everything else stays on Prisma. (Prisma 7.4+ caches query plans per query
 * shape, an LRU of 1000 by default: a warm single-statement query costs ~0.9-1.9 ms of CPU there.)
 */
export function sqlPool(db: Db): Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error("sqlPool: this client was not made by createPrisma");
  return pool;
}

import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, Prisma } from "./generated/client";

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

/** Prisma over the pg driver adapter: no native query engine, so it runs on offline machines. */
export function createPrisma(databaseUrl: string, poolSize = 10): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize });
  return new PrismaClient({ adapter });
}

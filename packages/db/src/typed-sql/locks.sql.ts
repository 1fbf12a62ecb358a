import { sql } from "kysely";
import { qb } from "./builder";
import { defineStatement } from "./statement";

/**
 * Waits for a transaction-scoped advisory lock on (namespace, key), released at commit or
 * rollback: a text key is hashed (hashtext), a number is used as it is. Namespaces keep the kinds of
 * keys apart, so that two kinds cannot block each other by a hash collision.
 */
export const advisoryXactLock = defineStatement(
  "advisory-xact-lock",
  { namespace: 1, key: "sample" as string | number },
  ({ namespace, key }) => {
    const second = typeof key === "number" ? sql`${key}::int4` : sql`hashtext(${key}::text)`;
    // ::text: the function answers void, which Prisma cannot read back.
    return qb.selectNoFrom(sql<string>`pg_advisory_xact_lock(${namespace}::int4, ${second})::text`.as("locked"));
  },
  // Built per call: the key's type decides the text.
);

/** `SELECT 1`: whether the database answers (readiness checks). */
export const ping = defineStatement("ping", {}, () => qb.selectNoFrom(sql<number>`1`.as("one")), { reuse: "value" });

import { sql, type CompiledQuery } from "kysely";
import { qb } from "./builder";
import { isPasteableText, literalInt, literalText } from "./expressions";
import { defineStatement, type Statement } from "./statement";

// ::text: pg_advisory_xact_lock answers void, which Prisma cannot read back.

/**
 * advisoryXactLock with a text key (hashed with hashtext).
 *
 * Locks: the advisory lock (namespace, hashtext(key)), waiting for it, until the transaction ends.
 */
const advisoryXactLockText = defineStatement(
  "advisory-xact-lock-text",
  { namespace: 1, key: "sample" },
  ({ namespace, key }) => qb.selectNoFrom(sql<string>`pg_advisory_xact_lock(${namespace}::int4, hashtext(${key}::text))::text`.as("locked")),
  { reuse: "shape" },
);

/**
 * advisoryXactLock with an integer key.
 *
 * Locks: the advisory lock (namespace, key), waiting for it, until the transaction ends.
 */
const advisoryXactLockNumber = defineStatement(
  "advisory-xact-lock-number",
  { namespace: 1, key: 1 },
  ({ namespace, key }) => qb.selectNoFrom(sql<string>`pg_advisory_xact_lock(${namespace}::int4, ${key}::int4)::text`.as("locked")),
  { reuse: "shape" },
);

/**
 * advisoryXactLock with a text key, the key and namespace pasted as literals: no parameters, so it
 * can be a transaction's opening (withSqlTransaction), sent with BEGIN in one round trip. The same
 * lock as advisoryXactLockText's (namespace, hashtext(key)). Its text is compiled once and each key
 * pasted into it (reuse "pasted").
 *
 * Locks: the advisory lock (namespace, hashtext(key)), waiting for it, until the transaction ends.
 */
const advisoryXactLockTextLiteral = defineStatement(
  "advisory-xact-lock-text-literal",
  { namespace: 1, key: "sample" },
  ({ namespace, key }) =>
    qb.selectNoFrom(sql<string>`pg_advisory_xact_lock(${literalInt(namespace)}::int4, hashtext(${literalText(key)}::text))::text`.as("locked")),
  { reuse: "pasted" },
);

/**
 * The advisory lock of a text key as a transaction's opening (see advisoryXactLockTextLiteral), or
 * undefined when the key holds a character that is not pasted (isPasteableText): then take the
 * lock with advisoryXactLock, a statement of its own.
 */
export function advisoryXactLockOpening(namespace: number, key: string): CompiledQuery | undefined {
  return isPasteableText(key) ? advisoryXactLockTextLiteral.compile({ namespace, key }) : undefined;
}

/**
 * Waits for a transaction-scoped advisory lock on (namespace, key), released at commit or
 * rollback: a text key is hashed (hashtext), a number is used as it is. Namespaces keep the kinds of
 * keys apart, so that two kinds cannot block each other by a hash collision. The key's type picks
 * one of two statements, each compiled once (a build may not test a value: typed-sql/reuse.ts).
 */
export const advisoryXactLock: Statement<{ namespace: number; key: string | number }, { locked: string }> = {
  name: "advisory-xact-lock",
  sample: { namespace: 1, key: "sample" },
  compile: ({ namespace, key }) =>
    typeof key === "number" ? advisoryXactLockNumber.compile({ namespace, key }) : advisoryXactLockText.compile({ namespace, key }),
};

/**
 * `SELECT 1`: whether the database answers (readiness checks).
 *
 * Locks: nothing.
 */
export const ping = defineStatement("ping", {}, () => qb.selectNoFrom(sql<number>`1`.as("one")), { reuse: "value" });

/*
 * Keys as a list of parameters, `col IN ($1, ..., $n)`, for a prepared statement that looks rows up
 * by a handful of keys. Passed as one array (`= ANY($1)`, `unnest($1)`), the keys make PostgreSQL's
 * generic plan assume 10 (or 100) elements, so the custom plan of a call with one or two always looks
 * cheaper and every call is planned again: over a bench run the outbox mark spent as much on planning
 * as on running (107 us a call), the dispatcher's fan-out 309 us a call (pg_stat_statements,
 * bench/README.md round 15). A list of n parameters costs the generic plan what it costs a custom
 * one, so after five calls PostgreSQL keeps the generic plan.
 *
 * The list is padded to a power of two (at least 4) by repeating its last key, so that a few shapes
 * (each a prepared statement, `reuse: "shape"`) serve every count; a key repeated in an IN list
 * matches its row once. For a statement whose keys are also used as a set elsewhere in its text, the
 * repeats must not matter there either.
 */

/** `keys` (at least one) as rows `{ key }`, padded to a power of two of at least 4 with the last key. */
export function keyList<K>(keys: readonly K[]): { key: K }[] {
  const last = keys.at(-1);
  if (keys.length === 0 || last === undefined) throw new Error("keyList: no keys");
  let size = 4;
  while (size < keys.length) size *= 2;
  return Array.from({ length: size }, (_, i) => ({ key: i < keys.length ? (keys[i] as K) : last }));
}

/** The keys of a keyList, for the builder's `in` (every value passed on untouched, as reuse requires). */
export const keysOf = <K>(list: readonly { key: K }[]): K[] => list.map((k) => k.key);

/**
 * Whether `err` is PostgreSQL's unique_violation (23505) on the named constraint: a race the caller
 * expects and answers (a replayed create, a contact's email taken meanwhile, a case file another run
 * of its job wrote first), told apart from every other failure by the index it hit.
 */
export function violatesUnique(err: unknown, constraint: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === "23505" && e.constraint === constraint;
}

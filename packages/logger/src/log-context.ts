import { AsyncLocalStorage } from "node:async_hooks";

/** Correlation fields (ids, names) that every line logged inside a context carries. */
export type LogFields = Readonly<Record<string, string | number | boolean>>;

const storage = new AsyncLocalStorage<LogFields>();

/**
 * Runs `fn` so that every line logged while it runs (in what it awaits too, through any logger of
 * this package) carries `fields`, unless the line sets the same field itself. Nested contexts add
 * to the outer one. This is how a worker's job id reaches the lines that job handlers log with the
 * process logger, without passing a logger down through every domain function.
 */
export function withLogContext<T>(fields: LogFields, fn: () => T): T {
  const outer = storage.getStore();
  return storage.run(outer ? { ...outer, ...fields } : fields, fn);
}

/** The fields of the innermost context, if any. */
export function currentLogContext(): LogFields | undefined {
  return storage.getStore();
}

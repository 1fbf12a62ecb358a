/**
 * `read` at most once per `ttlMs`: a value younger than that is returned as it is, and callers that
 * arrive while a read is in flight share it. Several Prometheus servers (or a dashboard refreshing)
 * scraping at once cost one Redis or PostgreSQL round trip. A failed read is not kept.
 */
export function cachedRead<T>(read: () => Promise<T>, ttlMs: number, now: () => number = Date.now): () => Promise<T> {
  let value: { at: number; value: T } | undefined;
  let inFlight: Promise<T> | undefined;
  return () => {
    if (value && now() - value.at < ttlMs) return Promise.resolve(value.value);
    inFlight ??= read()
      .then((v) => {
        value = { at: now(), value: v };
        return v;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
}

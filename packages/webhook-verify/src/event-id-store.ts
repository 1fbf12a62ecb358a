/**
 * Remembers which event ids were already accepted (verification step 4).
 * `markIfNew` records the id for `ttlSeconds` and returns true when it was not already recorded,
 * false when it was (a replay). It must be atomic when several receivers share it; with Redis:
 * `SET <prefix><eventId> 1 NX EX <ttlSeconds>` and return whether the reply was "OK".
 */
export interface EventIdStore {
  markIfNew(eventId: string, ttlSeconds: number): Promise<boolean> | boolean;
}

export interface MemoryEventIdStoreOptions {
  /** Upper bound on remembered ids; beyond it the oldest are dropped. Default 100 000. */
  maxEntries?: number;
  /** Clock in milliseconds; defaults to `Date.now` (inject one in tests). */
  now?: () => number;
}

/**
 * In-process `EventIdStore` for tests, examples and single-instance receivers. Entries expire after
 * their TTL; expired entries are evicted as new ids arrive, and the map never holds more than
 * `maxEntries` (when full of live ids, the oldest are dropped, which shortens their protection).
 */
export class MemoryEventIdStore implements EventIdStore {
  private readonly expiresAt = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: MemoryEventIdStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isSafeInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new TypeError("MemoryEventIdStore: maxEntries must be a positive integer");
    }
    this.now = options.now ?? Date.now;
  }

  /** Number of ids currently held (expired ones may linger until the next `markIfNew`). */
  get size(): number {
    return this.expiresAt.size;
  }

  markIfNew(eventId: string, ttlSeconds: number): boolean {
    const now = this.now();
    this.evictExpiredFromFront(now);

    const expiry = this.expiresAt.get(eventId);
    if (expiry !== undefined && expiry > now) return false;
    // Re-insert so the map's insertion order stays "oldest first".
    this.expiresAt.delete(eventId);

    if (this.expiresAt.size >= this.maxEntries) this.evictAllExpired(now);
    while (this.expiresAt.size >= this.maxEntries) {
      const oldest = this.expiresAt.keys().next();
      if (oldest.done === true) break;
      this.expiresAt.delete(oldest.value);
    }

    const ttlMs = Number.isFinite(ttlSeconds) ? Math.max(0, ttlSeconds) * 1000 : 0;
    this.expiresAt.set(eventId, now + ttlMs);
    return true;
  }

  /** Cheap sweep: entries are in insertion order, so expired ones usually sit at the front. */
  private evictExpiredFromFront(now: number): void {
    for (const [id, expiry] of this.expiresAt) {
      if (expiry > now) return;
      this.expiresAt.delete(id);
    }
  }

  /** Full sweep, for when entries with different TTLs leave expired ids behind live ones. */
  private evictAllExpired(now: number): void {
    for (const [id, expiry] of this.expiresAt) {
      if (expiry <= now) this.expiresAt.delete(id);
    }
  }
}

export default MemoryEventIdStore;

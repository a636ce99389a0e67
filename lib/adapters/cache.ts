/**
 * What an adapter keeps of what it read, bounded in size and age: a Lambda container lives for hours and
 * serves every client, so nothing is kept for ever or without limit. The least recently used entry goes first
 * when the cache is full; an entry older than `maxAgeMs` is read again (Infinity: what never changes).
 */
export interface CacheLimits {
  maxEntries: number;
  maxAgeMs: number;
  /** The clock (ms since the epoch); Date.now unless a test gives its own. */
  now?: () => number;
}

export class Cache<K, V> {
  // A Map iterates in insertion order: a hit is set again, so the first key is the least recently used.
  private readonly entries = new Map<K, { value: V; until: number }>();
  private readonly now: () => number;

  constructor(private readonly limits: CacheLimits) {
    if (!(limits.maxEntries >= 1)) throw new Error('a cache keeps at least one entry');
    this.now = limits.now ?? Date.now;
  }

  /** The value kept under a key, when it is not too old. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.limits.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, until: this.now() + this.limits.maxAgeMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Forgets everything kept. */
  clear(): void {
    this.entries.clear();
  }

  /**
   * The value kept under a key, else what `read` gives, kept. A promise is kept at once, so reads at the same
   * time share one; one that fails is not kept, and the next asks again.
   */
  getOrRead(key: K, read: () => V): V {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const value = read();
    this.set(key, value);
    if (value instanceof Promise) value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    return value;
  }

  get size() {
    return this.entries.size;
  }
}

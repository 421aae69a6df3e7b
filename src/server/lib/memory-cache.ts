/**
 * A bounded in-process map whose entries expire: the oldest entry goes first when it is full
 * (reads do not reorder: hits are the hot path, and every entry expires soon anyway). Times are
 * milliseconds the caller supplies (the app clock), so tests that move the clock move expiry with
 * it.
 */
export class MemoryCache<Key, Value> {
  private readonly entries = new Map<Key, { value: Value; expiresAt: number }>();

  constructor(private readonly capacity: number) {
    if (capacity < 1) throw new RangeError('capacity must be at least 1');
  }

  get(key: Key, nowMs: number): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: Key, value: Value, expiresAt: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  delete(key: Key): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches: rare events (a password change), so a full pass. */
  deleteWhere(matches: (value: Value) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * A small cache in the memory of one Workers isolate: each entry lives `ttlMs`, and at most `maxEntries`
 * are kept.
 *
 * Per isolate because that is all the memory a Worker has between requests: nothing here is shared with
 * another isolate, another data center or the next deployment, and an isolate may be evicted at any moment.
 * So an entry may only save work (a password hash, a round trip); what it holds must be cheap to lose and
 * must never be the one thing an answer rests on.
 *
 * Bounded because one isolate serves many callers for a long time within a 128 MB memory limit, and keys come
 * from requests (credentials, tokens): without a cap, every new key — or a stream of made-up ones — would grow
 * the map for the isolate's whole life. When full, the least recently set entry makes room (a Map iterates
 * in insertion order, and `set` re-inserts its key).
 */
export class IsolateCache<Value> {
  private readonly entries = new Map<string, { value: Value; expiresAt: number }>();

  constructor(private readonly limits: { ttlMs: number; maxEntries: number }) {}

  /** The value kept under `key`, unless it has expired (then it is dropped). */
  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` for `ttlMs` from now; the least recently set entry makes room when the cache is full. */
  set(key: string, value: Value): void {
    this.entries.delete(key);
    if (this.entries.size >= this.limits.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: Date.now() + this.limits.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

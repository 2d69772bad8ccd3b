/**
 * Reader apps send HTTP Basic on every page request, and each password check costs ~200 ms of argon2id.
 * A successful check is remembered for a short time in this isolate under a keyed hash of the
 * credentials (never the password). An entry only counts while the user's `authVersion` is unchanged,
 * so a password, role or account change invalidates it everywhere at once (DECISIONS.md §Auth).
 */
const TTL_MS = 5 * 60 * 1000;
const MAX_ENTRIES = 1000;

interface Entry {
  userId: string;
  authVersion: number;
  expiresAt: number;
}

const entries = new Map<string, Entry>();

export const BasicAuthCache = {
  get(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  },
  set(key: string, value: { userId: string; authVersion: number }): void {
    if (entries.size >= MAX_ENTRIES) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, { ...value, expiresAt: Date.now() + TTL_MS });
  },
  delete(key: string): void {
    entries.delete(key);
  },
};

/**
 * Reader apps send HTTP Basic on every page request, and each password check costs ~200 ms of argon2id.
 * A successful check is remembered for a short time in this isolate under a keyed hash of the
 * credentials (never the password). An entry only counts while the user's `authVersion` is unchanged,
 * so a password, role or account change invalidates it everywhere at once (DECISIONS.md §Auth).
 */
import { IsolateCache } from '../lib/isolate-cache';

export interface CheckedPassword {
  userId: string;
  authVersion: number;
}

export const BasicAuthCache = new IsolateCache<CheckedPassword>({ ttlMs: 5 * 60 * 1000, maxEntries: 1000 });

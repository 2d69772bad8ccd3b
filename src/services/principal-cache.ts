/**
 * The principal each credential had when this isolate last checked it (docs/ARCHITECTURE.md, "The
 * credential check beside the request"). A request with such a credential starts its handler as that
 * principal while the credential is checked again; the answer waits for the check and is made again when
 * the check finds other facts, so an entry never decides an answer by itself — it only lets the work start
 * early. Keyed by what naming the credential already computed, never by the credential: an API key's keyed
 * hash, the id of a session whose token's signature was verified, the keyed hash of Basic credentials.
 */
import { callerFacts, type Principal } from '../auth/principal';

const TTL_MS = 15 * 60 * 1000;
const MAX_ENTRIES = 1000;

export interface CheckedCaller {
  principal: Principal;
  /** `callerFacts(principal)`, worked out once. */
  facts: string;
  /** When the check that found it read the primary database (read replicas: DECISIONS.md §Far readers). */
  checkedOnPrimaryAt: number;
}

interface Entry extends CheckedCaller {
  expiresAt: number;
}

const entries = new Map<string, Entry>();

export const PrincipalCache = {
  get(key: string): CheckedCaller | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  },

  /** Remembers what a check found; the least recently checked credential makes room. */
  set(key: string, caller: CheckedCaller): void {
    entries.delete(key);
    if (entries.size >= MAX_ENTRIES) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, { ...caller, expiresAt: Date.now() + TTL_MS });
  },

  delete(key: string): void {
    entries.delete(key);
  },
};

/** What a check found, as the cache keeps it. */
export const checkedCaller = (principal: Principal, checkedOnPrimaryAt: number): CheckedCaller => ({
  principal,
  facts: callerFacts(principal),
  checkedOnPrimaryAt,
});

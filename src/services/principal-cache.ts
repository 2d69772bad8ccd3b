/**
 * The principal each credential had when this isolate last checked it (docs/ARCHITECTURE.md, "The
 * credential check beside the request"). A request with such a credential starts its handler as that
 * principal while the credential is checked again; the answer waits for the check and is made again when
 * the check finds other facts, so an entry never decides an answer by itself — it only lets the work start
 * early. Keyed by what naming the credential already computed, never by the credential: an API key's keyed
 * hash, the id of a session whose token's signature was verified, the keyed hash of Basic credentials.
 */
import { callerFacts, type Principal } from '../auth/principal';
import { IsolateCache } from '../lib/isolate-cache';

export interface CheckedCaller {
  principal: Principal;
  /** `callerFacts(principal)`, worked out once. */
  facts: string;
  /** When the check that found it read the primary database (read replicas: DECISIONS.md §Far readers). */
  checkedOnPrimaryAt: number;
}

/** Remembers what a check found; the least recently checked credential makes room. */
export const PrincipalCache = new IsolateCache<CheckedCaller>({ ttlMs: 15 * 60 * 1000, maxEntries: 1000 });

/** What a check found, as the cache keeps it. */
export const checkedCaller = (principal: Principal, checkedOnPrimaryAt: number): CheckedCaller => ({
  principal,
  facts: callerFacts(principal),
  checkedOnPrimaryAt,
});

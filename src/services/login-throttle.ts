/**
 * Login throttling per username and per client address (DECISIONS.md §Auth): a fixed window of
 * attempts kept in the database so every isolate sees the same counters.
 *
 * An attempt is counted BEFORE its password is checked (`reserve`), in one atomic upsert per counter.
 * Checking first and counting after the ~200 ms hash let parallel guesses all pass the check: twelve
 * concurrent wrong passwords were all evaluated against a limit of five. A success gives its
 * reservation back, so only failures remain counted.
 */
import { AppError } from '../lib/errors';
import type { LoginAttemptsRepository } from '../repositories/login-attempts.repository';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_USERNAME = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

interface Counter {
  key: string;
  limit: number;
}

export class LoginThrottle {
  constructor(private readonly attempts: LoginAttemptsRepository) {}

  private counters(username: string, address: string | null): Counter[] {
    const counters = [{ key: userKey(username), limit: MAX_FAILURES_PER_USERNAME }];
    if (address) counters.push({ key: `addr:${address}`, limit: MAX_FAILURES_PER_ADDRESS });
    return counters;
  }

  /**
   * Counts one attempt against the username and the address. Throws 429 with Retry-After (and counts
   * nothing) when either is already at its limit in the current window.
   */
  async reserve(username: string, address: string | null, now = Date.now()): Promise<void> {
    const counters = this.counters(username, address);
    const windowStart = new Date(now - THROTTLE_WINDOW_MS).toISOString();
    const windows = await this.attempts.count(
      counters.map((c) => c.key),
      new Date(now).toISOString(),
      windowStart,
    );

    let retryAfterMs = 0;
    counters.forEach(({ limit }, i) => {
      const row = windows[i];
      if (row && row.failures > limit) {
        retryAfterMs = Math.max(retryAfterMs, Date.parse(row.windowStartedAt) + THROTTLE_WINDOW_MS - now);
      }
    });
    if (retryAfterMs > 0) {
      // A refused attempt checks no password, so it must not count (nor lengthen anyone's lockout).
      await this.attempts.forgetAndRelease(
        [],
        counters.map((c) => c.key),
      );
      throw new AppError('TooManyRequests', 'Too many failed login attempts; try again later', {
        headers: { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
      });
    }
  }

  /**
   * The password was right: the username's failures are forgiven, and the address gets this attempt
   * back (its earlier failures stay: one address, many users).
   */
  async recordSuccess(username: string, address: string | null): Promise<void> {
    await this.attempts.forgetAndRelease([userKey(username)], address ? [`addr:${address}`] : []);
  }
}

const userKey = (username: string) => `user:${username.toLowerCase()}`;

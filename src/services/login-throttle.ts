/**
 * Login throttling per username and per client address (DECISIONS.md §Auth): a fixed window of
 * attempts kept in the database so every isolate sees the same counters.
 *
 * An attempt is counted BEFORE its password is checked, in one atomic upsert per counter. Checking
 * first and counting after the ~200 ms hash let parallel guesses all pass the check: twelve
 * concurrent wrong passwords were all evaluated against a limit of five. A success gives its
 * reservation back, so only failures remain counted.
 *
 * The count and the read of the account the name belongs to are one round trip (issue 30): an e-mail
 * address is throttled under the account's username, which the database finds in the same statement.
 */
import { AppError } from '../lib/errors';
import type { CounterRelease, SignInRead, SignInRepository } from '../repositories/sign-in.repository';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_USERNAME = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

/** One attempt counted: the account its name found, the settings when asked for, and the name it is throttled under. */
export interface CountedAttempt extends Omit<SignInRead, 'windows'> {
  throttledName: string;
}

export class LoginThrottle {
  constructor(private readonly signIns: SignInRepository) {}

  /**
   * Counts one attempt at `name` against the username and the address, and reads the account it names,
   * in one round trip. Throws 429 with Retry-After (and counts nothing) when either counter was already at
   * its limit in the current window. `byEmail`: the name may be the account's e-mail address, throttled
   * under the account's username (a name naming no account is throttled as typed).
   */
  async attempt(
    name: string,
    address: string | null,
    options: { byEmail: boolean; withSettings: boolean },
    now = Date.now(),
  ): Promise<CountedAttempt> {
    const userCounter = options.byEmail
      ? { accountNamed: name, prefix: userKey(''), fallback: userKey(name) }
      : userKey(name);
    const limits = [MAX_FAILURES_PER_USERNAME, ...(address ? [MAX_FAILURES_PER_ADDRESS] : [])];
    const { windows, found, settings } = await this.signIns.countAndFind({
      counters: [userCounter, ...(address ? [addressKey(address)] : [])],
      name,
      orEmail: options.byEmail,
      now: new Date(now).toISOString(),
      windowStart: new Date(now - THROTTLE_WINDOW_MS).toISOString(),
      withSettings: options.withSettings,
    });
    // The statement that counted under the account's username found the same account as the read beside it.
    const throttledName = options.byEmail ? (found?.user.username ?? name) : name;

    let retryAfterMs = 0;
    limits.forEach((limit, i) => {
      const row = windows[i];
      if (row && row.failures > limit) {
        retryAfterMs = Math.max(retryAfterMs, Date.parse(row.windowStartedAt) + THROTTLE_WINDOW_MS - now);
      }
    });
    if (retryAfterMs > 0) {
      // A refused attempt checks no password, so it must not count (nor lengthen anyone's lockout).
      const counted = [userKey(throttledName), ...(address ? [addressKey(address)] : [])];
      await this.signIns.record({ counters: { forget: [], release: counted } });
      throw new AppError('TooManyRequests', 'Too many failed login attempts; try again later', {
        headers: { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
      });
    }
    return { found, settings, throttledName };
  }

  /**
   * What a right password writes: the username's failures are forgiven, and the address gets this attempt
   * back (its earlier failures stay: one address, many users). Written with the sign-in's other rows.
   */
  success(username: string, address: string | null): CounterRelease {
    return { forget: [userKey(username)], release: address ? [addressKey(address)] : [] };
  }
}

const userKey = (username: string) => `user:${username.toLowerCase()}`;
const addressKey = (address: string) => `addr:${address}`;

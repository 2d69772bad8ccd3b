/**
 * Login throttling per username and per client address (DECISIONS.md §Auth): a fixed window of
 * failures kept in the database so every isolate sees the same counters.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { loginAttempts } from '../db/schema';
import { AppError } from '../lib/errors';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_USERNAME = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export class LoginThrottle {
  constructor(private readonly db: Database) {}

  private keys(username: string, address: string | null) {
    const keys = [{ key: `user:${username.toLowerCase()}`, limit: MAX_FAILURES_PER_USERNAME }];
    if (address) keys.push({ key: `addr:${address}`, limit: MAX_FAILURES_PER_ADDRESS });
    return keys;
  }

  /** Throws 429 with Retry-After when either counter is exhausted in the current window. */
  async assertAllowed(username: string, address: string | null, now = Date.now()): Promise<void> {
    for (const { key, limit } of this.keys(username, address)) {
      const row = await this.db.select().from(loginAttempts).where(eq(loginAttempts.key, key)).get();
      if (!row) continue;
      const windowEnd = Date.parse(row.windowStartedAt) + THROTTLE_WINDOW_MS;
      if (windowEnd > now && row.failures >= limit) {
        const retryAfter = Math.ceil((windowEnd - now) / 1000);
        throw new AppError('TooManyRequests', 'Too many failed login attempts; try again later', {
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
    }
  }

  async recordFailure(username: string, address: string | null, now = Date.now()): Promise<void> {
    const nowText = new Date(now).toISOString();
    const windowStart = new Date(now - THROTTLE_WINDOW_MS).toISOString();
    await this.db.batch(
      this.keys(username, address).map(({ key }) =>
        this.db
          .insert(loginAttempts)
          .values({ key, failures: 1, windowStartedAt: nowText })
          .onConflictDoUpdate({
            target: loginAttempts.key,
            // A window that has ended starts over at 1; otherwise count up.
            set: {
              failures: sql`case when ${loginAttempts.windowStartedAt} <= ${windowStart} then 1 else ${loginAttempts.failures} + 1 end`,
              windowStartedAt: sql`case when ${loginAttempts.windowStartedAt} <= ${windowStart} then ${nowText} else ${loginAttempts.windowStartedAt} end`,
            },
          }),
      ) as [never, ...never[]],
    );
  }

  /** A successful login clears the username's counter (not the address's: one address, many users). */
  async recordSuccess(username: string): Promise<void> {
    await this.db.delete(loginAttempts).where(eq(loginAttempts.key, `user:${username.toLowerCase()}`));
  }
}

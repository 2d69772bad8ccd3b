/** Failed-login counters (DECISIONS.md §Auth): one row per username or client address and fixed window. */
import { eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { loginAttempts } from '../db/schema';

/**
 * The upsert counting one attempt against `key` (text, or an SQL expression when the key is only known in the
 * database: an e-mail sign-in throttled under the account's username); it returns the window after the count.
 * A window that started at or before `windowStart` has ended and starts over at 1.
 */
export function countAttemptStatement(db: Database, key: string | SQL, now: string, windowStart: string) {
  const expired = sql`${loginAttempts.windowStartedAt} <= ${windowStart}`;
  return db
    .insert(loginAttempts)
    .values({ key: typeof key === 'string' ? key : sql`${key}`, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${loginAttempts.failures} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${now} else ${loginAttempts.windowStartedAt} end`,
      },
    })
    .returning({ failures: loginAttempts.failures, windowStartedAt: loginAttempts.windowStartedAt });
}

/** The statements forgetting the `forget` counters and giving each `release` counter one attempt back. */
export function forgetAndReleaseStatements(db: Database, forget: readonly string[], release: readonly string[]) {
  return [
    ...forget.map((key) => db.delete(loginAttempts).where(eq(loginAttempts.key, key))),
    ...release.map((key) =>
      db
        .update(loginAttempts)
        .set({ failures: sql`max(${loginAttempts.failures} - 1, 0)` })
        .where(eq(loginAttempts.key, key)),
    ),
  ];
}

export interface AttemptWindow {
  failures: number;
  windowStartedAt: string;
}

export class LoginAttemptsRepository {
  constructor(private readonly db: Database) {}

  /** Counters whose window started before `cutoff` (ended windows only ever grow the table otherwise). */
  async deleteStartedBefore(cutoff: string): Promise<void> {
    await this.db.delete(loginAttempts).where(lt(loginAttempts.windowStartedAt, cutoff));
  }
}

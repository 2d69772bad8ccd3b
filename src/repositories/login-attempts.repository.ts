/** Failed-login counters (DECISIONS.md §Auth): one row per username or client address and fixed window. */
import { eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { loginAttempts } from '../db/schema';

export interface AttemptWindow {
  failures: number;
  windowStartedAt: string;
}

export class LoginAttemptsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Counts one attempt against each key, in one atomic upsert per key and one batch: a window that started at
   * or before `windowStart` has ended and starts over at 1. Returns each key's window after the count, in order.
   */
  async count(keys: string[], now: string, windowStart: string): Promise<Array<AttemptWindow | undefined>> {
    const expired = sql`${loginAttempts.windowStartedAt} <= ${windowStart}`;
    const statements = keys.map((key) =>
      this.db
        .insert(loginAttempts)
        .values({ key, failures: 1, windowStartedAt: now })
        .onConflictDoUpdate({
          target: loginAttempts.key,
          set: {
            failures: sql`case when ${expired} then 1 else ${loginAttempts.failures} + 1 end`,
            windowStartedAt: sql`case when ${expired} then ${now} else ${loginAttempts.windowStartedAt} end`,
          },
        })
        .returning({ failures: loginAttempts.failures, windowStartedAt: loginAttempts.windowStartedAt }),
    );
    const rows = (await this.db.batch(statements as [never, ...never[]])) as AttemptWindow[][];
    return rows.map((row) => row[0]);
  }

  /** In one batch: forgets the `forget` counters and gives each `release` counter one attempt back. */
  async forgetAndRelease(forget: string[], release: string[]): Promise<void> {
    const [first, ...rest] = [
      ...forget.map((key) => this.db.delete(loginAttempts).where(eq(loginAttempts.key, key))),
      ...release.map((key) =>
        this.db
          .update(loginAttempts)
          .set({ failures: sql`max(${loginAttempts.failures} - 1, 0)` })
          .where(eq(loginAttempts.key, key)),
      ),
    ];
    if (first) await this.db.batch([first, ...rest]);
  }

  /** Counters whose window started before `cutoff` (ended windows only ever grow the table otherwise). */
  async deleteStartedBefore(cutoff: string): Promise<void> {
    await this.db.delete(loginAttempts).where(lt(loginAttempts.windowStartedAt, cutoff));
  }
}

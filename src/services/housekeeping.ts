/**
 * Hourly clean-up run by the cron trigger: rows that only ever grow otherwise — expired sessions,
 * ended login-throttle windows (spraying made-up usernames adds one per name), used-up verification
 * tokens.
 */
import { lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { emailVerificationTokens, loginAttempts, sessions } from '../db/schema';
import { THROTTLE_WINDOW_MS } from './login-throttle';

export async function pruneExpired(db: Database, now: Date): Promise<void> {
  const nowText = now.toISOString();
  await db.batch([
    db.delete(sessions).where(lt(sessions.expiresAt, nowText)),
    db
      .delete(loginAttempts)
      .where(lt(loginAttempts.windowStartedAt, new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString())),
    db.delete(emailVerificationTokens).where(lt(emailVerificationTokens.expiresAt, nowText)),
  ]);
}

/**
 * Hourly clean-up run by the cron trigger: rows that only ever grow otherwise — expired sessions,
 * ended login-throttle windows (spraying made-up usernames adds one per name), used-up verification
 * tokens, old authentication activity, reading sessions older than the retention setting — and cached images
 * whose book is gone.
 */
import type { Database } from '../db/client';
import { BookMediaRepository } from '../repositories/book-media.repository';
import { AuthenticationActivityRepository } from '../repositories/authentication-activity.repository';
import { LoginAttemptsRepository } from '../repositories/login-attempts.repository';
import { SessionsRepository } from '../repositories/sessions.repository';
import { SettingsRepository } from '../repositories/settings.repository';
import { UsersRepository } from '../repositories/users.repository';
import { SWEEP_SLICES, type SweepResult, sweepOrphanedImages } from '../storage/cached-images';
import { AuthenticationActivityService } from './authentication-activity.service';
import { THROTTLE_WINDOW_MS } from './login-throttle';
import { readingStatsService } from './reading-stats.service';
import { SettingsService } from './settings.service';

const HOUR_MS = 3_600_000;

export async function pruneExpired(db: Database, now: Date): Promise<void> {
  const nowText = now.toISOString();
  await new SessionsRepository(db).deleteExpired(nowText);
  await new LoginAttemptsRepository(db).deleteStartedBefore(new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString());
  await new UsersRepository(db).deleteExpiredVerificationTokens(nowText);
  await new AuthenticationActivityService(new AuthenticationActivityRepository(db)).prune(now);
  const retentionDays = await new SettingsService(new SettingsRepository(db)).value('stats.retention_days');
  await readingStatsService(db).prune(retentionDays, now);
}

/**
 * One slice of the CACHE bucket per hour, in turn (hours since the epoch, modulo the slice count), so
 * each run is bounded and the whole bucket is swept every 16 hours.
 */
export function sweepCachedImages(db: Database, cache: R2Bucket, now: Date): Promise<SweepResult> {
  const books = new BookMediaRepository(db);
  const slice = Math.floor(now.getTime() / HOUR_MS) % SWEEP_SLICES;
  return sweepOrphanedImages(cache, (ids) => books.existingIds(ids), slice);
}

/**
 * Time spent reading, per user, book and device, as devices report it (src/db/tables/kobo.ts
 * readingStatistics): the one place the table is written. Each growth of a device's total is also measured
 * reading time, recorded as a session beside it (reading-sessions.repository.ts `spentTimeStatement`).
 */
import type { Database } from '../db/client';
import { readingStatistics } from '../db/schema';
import type { AlongsideWrite } from './read-progress.repository';
import type { ReadingSessionsRepository } from './reading-sessions.repository';

export interface ReadingTimeReport {
  userId: string;
  bookId: string;
  deviceId: string;
  deviceName: string;
  spentReadingMinutes: number;
  remainingTimeMinutes: number | null;
  at: string;
}

export class ReadingStatisticsRepository {
  constructor(
    private readonly db: Database,
    private readonly sessions: ReadingSessionsRepository,
  ) {}

  /**
   * The device's running total for the book, replacing its last one, and what it grew as a measured session
   * (read from the total before it is replaced, so first); written beside the progress it came with.
   */
  report(report: ReadingTimeReport): [AlongsideWrite, AlongsideWrite] {
    const { at, ...values } = report;
    const session = this.sessions.spentTimeStatement({
      userId: report.userId,
      bookId: report.bookId,
      device: { id: report.deviceId, name: report.deviceName },
      spentReadingMinutes: report.spentReadingMinutes,
      at,
    });
    const total = this.db
      .insert(readingStatistics)
      .values({ ...values, updatedAt: at })
      .onConflictDoUpdate({
        target: [readingStatistics.userId, readingStatistics.bookId, readingStatistics.deviceId],
        set: {
          deviceName: values.deviceName,
          spentReadingMinutes: values.spentReadingMinutes,
          remainingTimeMinutes: values.remainingTimeMinutes,
          updatedAt: at,
        },
      });
    return [session, total];
  }

  /** The report alone, when a device sends its reading time without a position. */
  async save(report: ReadingTimeReport): Promise<void> {
    await this.db.batch(this.report(report));
  }
}

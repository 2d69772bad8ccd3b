/**
 * Time spent reading, per user, book and device, as devices report it (src/db/tables/kobo.ts
 * readingStatistics): the one place the table is written. Reading statistics (a later issue) read it.
 */
import type { Database } from '../db/client';
import { readingStatistics } from '../db/schema';
import type { AlongsideWrite } from './read-progress.repository';

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
  constructor(private readonly db: Database) {}

  /** The device's running total for the book, replacing its last one; written beside the progress it came with. */
  report(report: ReadingTimeReport): AlongsideWrite {
    const { at, ...values } = report;
    return this.db
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
  }

  /** The report alone, when a device sends its reading time without a position. */
  async save(report: ReadingTimeReport): Promise<void> {
    await this.report(report);
  }
}

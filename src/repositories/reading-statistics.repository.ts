/**
 * Time spent reading, per user, book and device, as devices report it (src/db/tables/kobo.ts
 * readingStatistics): the one place the table is written. Reading statistics (a later issue) read it.
 */
import type { Database } from '../db/client';
import { type SQL, sql } from 'drizzle-orm';
import { books, readingStatistics } from '../db/schema';
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

  /**
   * The device's running total for the book, replacing its last one; written beside the progress it came with, and
   * only when `written`, that write's own condition over `books`, holds (read-progress.repository `GuardedAlongside`).
   */
  report(report: ReadingTimeReport, written: SQL): AlongsideWrite {
    const { at, ...values } = report;
    // Columns in table order: user, book, device, its name, minutes spent, minutes left, when.
    return this.db
      .insert(readingStatistics)
      .select(
        sql`SELECT ${values.userId}, ${values.bookId}, ${values.deviceId}, ${values.deviceName},
          ${values.spentReadingMinutes}, ${values.remainingTimeMinutes}, ${at}
          WHERE EXISTS (SELECT 1 FROM ${books} WHERE ${written})`,
      )
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
}

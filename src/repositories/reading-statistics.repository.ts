/**
 * Time spent reading, per user, book and device, as devices report it (src/db/tables/kobo.ts
 * readingStatistics): the one place the table is written. Each growth of a device's total is also measured
 * reading time, recorded as a session beside it (reading-sessions.repository.ts `spentTimeStatement`).
 */
import type { Database } from '../db/client';
import { type SQL, sql } from 'drizzle-orm';
import { books, readingStatistics } from '../db/schema';
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
   * (read from the total before it is replaced, so first); written beside the progress it came with, and only
   * when `written`, that write's own condition over `books`, holds (read-progress.repository `GuardedAlongside`).
   */
  report(report: ReadingTimeReport, written: SQL): [AlongsideWrite, AlongsideWrite] {
    const { at, ...values } = report;
    const session = this.sessions.spentTimeStatement({
      userId: report.userId,
      bookId: report.bookId,
      device: { id: report.deviceId, name: report.deviceName },
      spentReadingMinutes: report.spentReadingMinutes,
      at,
      written,
    });
    // Columns in table order: user, book, device, its name, minutes spent, minutes left, when.
    const total = this.db
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
    return [session, total];
  }
}

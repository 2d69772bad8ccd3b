/**
 * Keeping `series_read_progress` (src/db/tables/reading.ts) true to the rows it counts: the statements that
 * recount a user's (or every user's) progress in some series over their live books. Every write that changes
 * what the counts depend on adds them to its own batch (one transaction), so no reader ever sees the counts
 * disagree with the progress rows (docs/ARCHITECTURE.md §Series read state):
 * - progress written, completed, un-completed or deleted, or imported by a migration (read-progress.repository.ts);
 * - books soft-deleted, restored or moved, which always ends in `CatalogWriter.refreshSeries`;
 * - a library, a trashed series or a user removed (their rows go with them).
 * The counts are over live books only, as `series.book_count` is, so "read" is `read_count = book_count`.
 */
import { and, eq, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import { seriesReadProgress } from '../db/schema';

type Statement = BatchItem<'sqlite'>;

/** Series ids as a subquery: those of some books (given as JSON ids), or of one book. */
export const seriesOfBooks = (bookIds: readonly string[]): SQL =>
  sql`SELECT series_id FROM books WHERE id IN (SELECT value FROM json_each(${JSON.stringify(bookIds)}))`;

/** Series ids as a subquery, from a list of ids (one JSON parameter however many: D1 binds at most 100). */
export const seriesIdList = (seriesIds: readonly string[]): SQL =>
  sql`SELECT value FROM json_each(${JSON.stringify(seriesIds)})`;

/**
 * Recounts `userId`'s progress (every user's, when null) in the series `seriesIds` selects: their rows are
 * removed and written again from the progress on those series' live books. `onlyIf`, an uncorrelated
 * condition, skips the recount when the write before it in the batch changed nothing it counts (the
 * per-page progress of page streaming).
 */
export function recountSeriesProgress(
  db: Database,
  seriesIds: SQL,
  userId: string | null,
  onlyIf: SQL = sql`TRUE`,
): [Statement, Statement] {
  const ofUser = (column: SQLWrapper) => (userId === null ? sql`TRUE` : sql`${column} = ${userId}`);
  return [
    db
      .delete(seriesReadProgress)
      .where(
        sql`${seriesReadProgress.seriesId} IN (${seriesIds}) AND ${ofUser(seriesReadProgress.userId)} AND ${onlyIf}`,
      ),
    // Columns in table order: user, series, read, in progress.
    db.insert(seriesReadProgress).select(
      sql`SELECT rp.user_id, b.series_id, sum(rp.completed), count(*) - sum(rp.completed)
        FROM books b INDEXED BY books_live_reading_order_idx
        JOIN read_progress rp ON rp.book_id = b.id AND ${ofUser(sql`rp.user_id`)}
        WHERE b.series_id IN (${seriesIds}) AND b.deleted_at IS NULL AND ${onlyIf}
        GROUP BY rp.user_id, b.series_id`,
    ),
  ];
}

/** A user's rows, removed with the user. */
export const forgetUserSeriesProgress = (db: Database, userId: string, onlyIf?: SQL): Statement =>
  db.delete(seriesReadProgress).where(and(eq(seriesReadProgress.userId, userId), onlyIf));

/** Every user's rows of these series (a subquery of series ids), removed with the series. */
export const forgetSeriesProgress = (db: Database, seriesIds: SQLWrapper): Statement =>
  db.delete(seriesReadProgress).where(inArray(seriesReadProgress.seriesId, seriesIds));

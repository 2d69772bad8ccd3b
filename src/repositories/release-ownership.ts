/**
 * When the library already holds a release (docs/DECISIONS.md §Release tracking, "Acquired"): every chapter
 * of its chapter span is a live book's chapter, or every volume of its volume span is a live book that is a
 * whole volume (volume set, chapter not). A release of "v.3 c.14" is held by chapter 14 or by volume 3. One
 * SQL condition, used where a release is recorded (it is recorded as acquired) and after a scan changes a
 * series' books (announced releases it now holds become acquired).
 */
import { type SQL, sql } from 'drizzle-orm';

/** A release's numbers as SQL values: ledger columns, or the fields of a row being inserted. */
export interface ReleaseNumbers {
  seriesId: SQL;
  chapterStart: SQL;
  chapter: SQL;
  volumeStart: SQL;
  volume: SQL;
}

/** How many distinct numbers a span holds: 1 for a single (even fractional) chapter, else end − start + 1. */
const spanLength = (start: SQL, end: SQL) =>
  sql`CASE WHEN ${end} = ${start} THEN 1 ELSE CAST(${end} AS INTEGER) - CAST(${start} AS INTEGER) + 1 END`;

export function heldByLibrary(release: ReleaseNumbers): SQL {
  const { seriesId, chapterStart, chapter, volumeStart, volume } = release;
  return sql`(
    (${chapter} IS NOT NULL AND (
      SELECT count(DISTINCT hb.chapter) FROM books hb
      WHERE hb.series_id = ${seriesId} AND hb.deleted_at IS NULL AND hb.chapter BETWEEN ${chapterStart} AND ${chapter}
    ) >= ${spanLength(chapterStart, chapter)})
    OR (${volume} IS NOT NULL AND (
      SELECT count(DISTINCT hb.volume) FROM books hb
      WHERE hb.series_id = ${seriesId} AND hb.deleted_at IS NULL AND hb.chapter IS NULL
        AND hb.volume BETWEEN ${volumeStart} AND ${volume}
    ) >= ${spanLength(volumeStart, volume)})
  )`;
}

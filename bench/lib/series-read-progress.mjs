// The per-series read counts the app keeps beside progress rows (src/repositories/series-read-progress.ts,
// docs/ARCHITECTURE.md §Series read state), for catalogs a benchmark writes straight into the D1 file: a
// user's rows recounted from their progress on live books, as the app's own recount does.
export function recountSeriesReadProgress(db, userId) {
  db.prepare('DELETE FROM series_read_progress WHERE user_id = ?').run(userId);
  db.prepare(
    `INSERT INTO series_read_progress (user_id, series_id, read_count, in_progress_count)
     SELECT rp.user_id, b.series_id, sum(rp.completed), count(*) - sum(rp.completed)
     FROM read_progress rp JOIN books b ON b.id = rp.book_id WHERE rp.user_id = ? AND b.deleted_at IS NULL
     GROUP BY rp.user_id, b.series_id`,
  ).run(userId);
}

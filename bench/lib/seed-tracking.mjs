/**
 * Tracks every live series of a seeded catalog (bench/lib/seed-catalog.ts) for the release-poll bench,
 * straight into the stopped worker's local D1 file, as turning tracking on through the API would leave it:
 * the tracking row (high-water marks at the series' local numbers), a MangaUpdates and an AniList id per
 * series, and a poll row per series and source — not due (the bench makes them due with poll-now-all).
 *
 *   node bench/lib/seed-tracking.mjs <d1.sqlite>
 *
 * Prints `{ tracked, sources }` as JSON.
 */
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';

const [database] = process.argv.slice(2);
const db = new DatabaseSync(database);
const now = new Date().toISOString();
const NOT_DUE = '9999-12-31T00:00:00.000Z';

const seriesRows = db
  .prepare(
    'SELECT id, local_max_chapter AS chapter, local_max_volume AS volume FROM series WHERE deleted_at IS NULL ORDER BY id',
  )
  .all();
const sources = db.prepare('SELECT id, provider FROM release_sources').all();

const tracking = db.prepare(`INSERT INTO series_tracking (series_id, tracked, chapter_tracking, volume_tracking,
  latest_known_chapter, latest_known_volume, created_at, updated_at) VALUES (?, 1, 1, 1, ?, ?, ?, ?)`);
const externalId =
  db.prepare(`INSERT INTO series_external_ids (id, series_id, source, external_id, external_url, origin,
  created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'manual', ?, ?)`);
const poll = db.prepare('INSERT INTO release_polls (series_id, source_id, next_poll_at) VALUES (?, ?, ?)');

db.exec('BEGIN');
seriesRows.forEach((series, n) => {
  tracking.run(series.id, series.chapter, series.volume, now, now);
  const mu = String(1_000_000_000 + n);
  const al = String(100_000 + n);
  externalId.run(
    randomUUID(),
    series.id,
    'mangaupdates',
    mu,
    `https://www.mangaupdates.com/series/${Number(mu).toString(36)}`,
    now,
    now,
  );
  externalId.run(randomUUID(), series.id, 'anilist', al, `https://anilist.co/manga/${al}`, now, now);
  for (const source of sources) poll.run(series.id, source.id, NOT_DUE);
});
db.exec('COMMIT');
db.close();
console.log(JSON.stringify({ tracked: seriesRows.length, sources: sources.length }));

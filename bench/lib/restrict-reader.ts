/**
 * Gives the catalog-queries benchmark a restricted reader (issue 17), straight in the stopped worker's D1
 * file after seed-catalog.ts:
 *
 *   node --import tsx bench/lib/restrict-reader.ts <d1.sqlite> <config.json>
 *
 * config: { readerId, adminId, libraryIds }. Series get age ratings (1 in 10 rated 18, 3 in 10 rated 13,
 * the rest none) and 1 in 40 a sharing label "Mature"; the reader is limited to the listed libraries
 * (by id, not "all libraries", so the library test runs), with an EXCLUDE 18 age restriction and the
 * label denied — every kind of restriction at once — and gets a copy of the admin's progress, so
 * on-deck and read-status filters have the same work for both. Prints counts as JSON.
 */
import { DatabaseSync } from 'node:sqlite';
import { readFileSync } from 'node:fs';

const [file, configFile] = process.argv.slice(2) as [string, string];
const { readerId, adminId, libraryIds } = JSON.parse(readFileSync(configFile, 'utf8')) as {
  readerId: string;
  adminId: string;
  libraryIds: string[];
};
const db = new DatabaseSync(file);
const now = new Date().toISOString();
const labelId = crypto.randomUUID();
db.exec('BEGIN');
// rowid order is insertion order, and seed-catalog.ts gives progress to every 5th series (rowids 1, 6, 11…):
// the residues below hide some of those too, so on-deck and read-status lists lose rows as well.
db.exec(`UPDATE series SET age_rating = CASE rowid % 10 WHEN 1 THEN 18 WHEN 2 THEN 13 WHEN 3 THEN 13 WHEN 4 THEN 13
  ELSE NULL END`);
db.prepare('INSERT INTO sharing_labels (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
  labelId,
  'Mature',
  now,
  now,
);
db.prepare('INSERT INTO series_sharing_labels (series_id, label_id) SELECT id, ? FROM series WHERE rowid % 40 = 6').run(
  labelId,
);
db.prepare(`UPDATE users SET shared_all_libraries = 0, age_restriction_age = 18, age_restriction_mode = 'EXCLUDE'
  WHERE id = ?`).run(readerId);
const grant = db.prepare('INSERT INTO user_library_access (user_id, library_id) VALUES (?, ?)');
for (const libraryId of libraryIds) grant.run(readerId, libraryId);
db.prepare(`INSERT INTO user_sharing_labels (user_id, label_id, mode, created_at) VALUES (?, ?, 'deny', ?)`).run(
  readerId,
  labelId,
  now,
);
const columns = (db.prepare('PRAGMA table_info(read_progress)').all() as Array<{ name: string }>)
  .map((c) => c.name)
  .filter((name) => name !== 'id' && name !== 'user_id');
const list = columns.join(', ');
db.prepare(`INSERT INTO read_progress (id, user_id, ${list}) SELECT lower(hex(randomblob(16))), ?, ${list}
  FROM read_progress WHERE user_id = ?`).run(readerId, adminId);
db.exec('COMMIT');
const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
console.log(
  JSON.stringify({
    rated18: count('SELECT count(*) AS n FROM series WHERE age_rating >= 18'),
    labelled: count('SELECT count(*) AS n FROM series_sharing_labels'),
    hiddenSeries: count(`SELECT count(*) AS n FROM series WHERE age_rating >= 18 OR id IN
      (SELECT series_id FROM series_sharing_labels)`),
    progress: count(`SELECT count(*) AS n FROM read_progress WHERE user_id = '${readerId}'`),
  }),
);
db.close();

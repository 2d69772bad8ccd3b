/**
 * The Komga household the migrate benchmark imports, built from the catalog seeded into a stopped worker's D1
 * (bench/lib/seed-catalog.ts): every live book of Longbox is a book of Komga too, half of them under the same
 * path below Komga's library root (matched by path), half moved to other folders with the KOReader hash both
 * servers computed (matched by hash), plus one book in a hundred Longbox does not have (reported unmatched).
 * Komga's users, their progress rows, read lists and API keys are spread over those books.
 *
 *   node --import tsx bench/lib/migrate-household.ts <d1.sqlite> <komga.sqlite> <config.json>
 *
 * config: { users, progressRows, readLists, readListBooks }. Prints counts as JSON.
 */
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { createKomgaDatabase, insertRow } from '../../test/support/peers/komga-database';
import { mulberry32 } from './prng';

interface HouseholdConfig {
  users: number;
  progressRows: number;
  readLists: number;
  readListBooks: number;
}

const rand = mulberry32(20260333);
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');

function main() {
  const [d1File, komgaFile, configFile] = process.argv.slice(2) as [string, string, string];
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as HouseholdConfig;
  const longbox = new DatabaseSync(d1File);
  // Half of Longbox's books get the KOReader hash its book-work queue would have computed.
  longbox.exec(`UPDATE books SET reader_hash = lower(hex(randomblob(16))) WHERE rowid % 2 = 1`);
  const books = longbox
    .prepare(
      `SELECT b.id, b.path, b.file_name, b.file_size, b.reader_hash, l.name AS library, l.path AS prefix, b.series_id
       FROM books b JOIN libraries l ON l.id = b.library_id WHERE b.deleted_at IS NULL ORDER BY b.path`,
    )
    .all() as Array<{
    id: string;
    path: string;
    file_name: string;
    file_size: number;
    reader_hash: string | null;
    library: string;
    prefix: string;
    series_id: string;
  }>;
  longbox.close();

  const db = createKomgaDatabase(komgaFile);
  db.exec('BEGIN');
  const libraries = [...new Set(books.map((b) => b.library))];
  for (const name of libraries) {
    insertRow(db, 'LIBRARY', { ID: `L${name}`, NAME: name, ROOT: `file:/srv/komga/${encodeURI(name)}/` });
  }
  const at = '2024-01-01 00:00:00';
  const series = new Map<string, string>();
  const komgaBooks: string[] = [];
  books.forEach((book, i) => {
    let seriesId = series.get(book.series_id);
    if (!seriesId) {
      seriesId = `S${series.size}`;
      series.set(book.series_id, seriesId);
      insertRow(db, 'SERIES', {
        ID: seriesId,
        FILE_LAST_MODIFIED: at,
        NAME: seriesId,
        URL: 'file:/x/',
        LIBRARY_ID: `L${book.library}`,
      });
      insertRow(db, 'SERIES_METADATA', {
        STATUS: 'ONGOING',
        TITLE: seriesId,
        TITLE_SORT: seriesId,
        SERIES_ID: seriesId,
      });
    }
    const relative = book.path.slice(book.prefix.length + 1);
    // Books with a hash were moved to other folders on Komga: only the hash finds them.
    const komgaPath = book.reader_hash ? `Moved ${i % 7}/${book.file_name}` : relative;
    const id = `B${i}`;
    komgaBooks.push(id);
    insertRow(db, 'BOOK', {
      ID: id,
      FILE_LAST_MODIFIED: at,
      NAME: book.file_name,
      URL: `file:/srv/komga/${encodeURI(book.library)}/${encodeURI(komgaPath)}`,
      SERIES_ID: seriesId,
      LIBRARY_ID: `L${book.library}`,
      FILE_SIZE: book.file_size,
      FILE_HASH_KOREADER: book.reader_hash ?? '',
    });
    if (i % 100 === 99) {
      insertRow(db, 'BOOK', {
        ID: `GONE${i}`,
        FILE_LAST_MODIFIED: at,
        NAME: 'gone',
        URL: `file:/srv/komga/${encodeURI(book.library)}/Gone/${i}.cbz`,
        SERIES_ID: seriesId,
        LIBRARY_ID: `L${book.library}`,
        FILE_SIZE: 1,
        FILE_HASH_KOREADER: hex(32),
      });
    }
  });
  const users = Array.from({ length: config.users }, (_, u) => `U${u}`);
  for (const [u, id] of users.entries()) {
    // A bcrypt hash of cost 10 (Spring's), as Komga stores every password.
    insertRow(db, 'USER', {
      ID: id,
      EMAIL: `reader${u}@home.test`,
      PASSWORD: `$2a$10$${'a'.repeat(22)}${hex(31).replace(/[^a-z0-9]/g, 'b')}`,
      CREATED_DATE: at,
    });
    if (u === 0) insertRow(db, 'USER_ROLE', { USER_ID: id, ROLE: 'ADMIN' });
    insertRow(db, 'USER_API_KEY', { ID: `K${u}`, USER_ID: id, API_KEY: hex(128), COMMENT: `Mihon ${u}` });
  }
  const perUser = Math.ceil(config.progressRows / users.length);
  let progress = 0;
  for (const [u, id] of users.entries()) {
    for (let i = 0; i < Math.min(perUser, komgaBooks.length) && progress < config.progressRows; i++) {
      const book = komgaBooks[(i * 7 + u * 13) % komgaBooks.length] as string;
      const completed = i % 3 === 0;
      insertRow(db, 'READ_PROGRESS', {
        BOOK_ID: book,
        USER_ID: id,
        PAGE: completed ? 20 : 1 + (i % 19),
        COMPLETED: completed ? 1 : 0,
        READ_DATE: at,
        CREATED_DATE: at,
        LAST_MODIFIED_DATE: `2024-02-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`,
      });
      progress += 1;
    }
  }
  for (let r = 0; r < config.readLists; r++) {
    insertRow(db, 'READLIST', { ID: `R${r}`, NAME: `Event ${r}`, BOOK_COUNT: config.readListBooks, ORDERED: 1 });
    const members = new Set<string>();
    for (let i = 0; i < config.readListBooks; i++)
      members.add(komgaBooks[(r * 997 + i * 31) % komgaBooks.length] as string);
    for (const [i, book] of [...members].entries()) {
      insertRow(db, 'READLIST_BOOK', { READLIST_ID: `R${r}`, BOOK_ID: book, NUMBER: i });
    }
  }
  db.exec('COMMIT');
  db.close();
  console.log(
    JSON.stringify({
      books: komgaBooks.length,
      series: series.size,
      users: users.length,
      progress,
      readLists: config.readLists,
    }),
  );
}

main();

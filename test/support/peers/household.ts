/**
 * The household the migration tests move (issue 33): the same book files — CBZs with ComicInfo and a
 * reflowable EPUB — uploaded into Longbox under one folder layout and known to Komga and Kavita under others,
 * and each peer's database filled with what such a household has: three users with a restricted kid, two
 * libraries, progress in CBZ and EPUB, ordered read lists, a collection, want-to-read, API keys, a label, a
 * locked title and an uploaded cover. Written in the peers' own tables (komga-database.ts, kavita-database.ts).
 */
import { gzipSync } from 'node:zlib';
import type { DatabaseSync } from 'node:sqlite';
import bcrypt from 'bcryptjs';
import { zipSync } from 'fflate';
import { comicInfoXml } from '../../fixtures/comic-info';
import { buildEpub } from '../../fixtures/epub-writer';
import { png } from '../../fixtures/images';
import { koreaderHash } from '../hashes';
import { createKavitaDatabase } from './kavita-database';
import { createKomgaDatabase, insertRow } from './komga-database';

/** A book file: where Longbox has it (library prefix and path), its bytes, and its pages. */
export interface HouseholdBook {
  key: string;
  longboxLibrary: 'comics' | 'children';
  longboxPath: string;
  bytes: Uint8Array;
  pages: number;
}

const cbz = (series: string, number: number, ageRating: string, seed: number) =>
  zipSync(
    {
      'ComicInfo.xml': comicInfoXml({ Series: series, Number: String(number), AgeRating: ageRating }),
      ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`${i + 1}.png`, png(60, 90, seed * 10 + i)])),
    },
    { level: 0 },
  );

/** The files, by key. The EPUB has 3 chapters of 3, 5 and 2 Readium positions (10 in all). */
export function householdBooks(): Record<string, HouseholdBook> {
  const book = (key: string, library: HouseholdBook['longboxLibrary'], path: string, bytes: Uint8Array, pages = 4) => ({
    key,
    longboxLibrary: library,
    longboxPath: path,
    bytes,
    pages,
  });
  return {
    saga1: book('saga1', 'comics', 'Saga/Saga 001.cbz', cbz('Saga', 1, 'Mature 17+', 1)),
    saga2: book('saga2', 'comics', 'Saga/Saga 002.cbz', cbz('Saga', 2, 'Mature 17+', 2)),
    saga3: book('saga3', 'comics', 'Saga/Saga 003.cbz', cbz('Saga', 3, 'Mature 17+', 3)),
    novel: book(
      'novel',
      'comics',
      'Novels/The Book.epub',
      buildEpub({
        spine: [
          { kind: 'text', bytes: 3000 },
          { kind: 'text', bytes: 5000 },
          { kind: 'text', bytes: 2000 },
        ],
        metadataXml: '<dc:title>The Book</dc:title>',
      }),
      10,
    ),
    bluey1: book('bluey1', 'children', 'Shows/Bluey/Bluey 01.cbz', cbz('Bluey', 1, 'Everyone', 4)),
    bluey2: book('bluey2', 'children', 'Shows/Bluey/Bluey 02.cbz', cbz('Bluey', 2, 'Everyone', 5)),
    scary: book('scary', 'children', 'Scary Stories/Scary 01.cbz', cbz('Scary', 1, 'Everyone', 6)),
    titans: book('titans', 'children', 'Teen/Titans 01.cbz', cbz('Titans', 1, 'Teen', 7)),
  };
}

export const PASSWORDS = { dad: 'dads-komga-password', mum: 'mums-komga-password', kid: 'kids-komga-password' };
/** Mum's Komga API key (a UUID without dashes, as Komga makes them). */
export const MUM_KOMGA_KEY = '6f1e2d3c4b5a69788796a5b4c3d2e1f0';

const sha512 = async (text: string) =>
  Buffer.from(await crypto.subtle.digest('SHA-512', new TextEncoder().encode(text))).toString('hex');
const fileUrl = (path: string) => `file:${encodeURI(path)}`;

/**
 * Komga's view: libraries "Comics" (/data/comics, the same layout as Longbox's) and "Kids" (/data/kids, flatter
 * than Longbox's "Children"), one book Longbox does not have; dad (admin), mum, and the kid, who sees only Kids,
 * rated at most 10, and nothing labelled "scary".
 */
export async function buildKomgaHousehold(
  file: string,
  books: Record<string, HouseholdBook>,
  options: { installedOn?: string; users?: Array<'dad' | 'mum' | 'kid'> } = {},
): Promise<DatabaseSync> {
  const db = createKomgaDatabase(file, { installedOn: options.installedOn });
  const at = '2024-04-01 09:00:00.000';
  insertRow(db, 'LIBRARY', { ID: 'LIBCOMICS', NAME: 'Comics', ROOT: fileUrl('/data/comics/') });
  insertRow(db, 'LIBRARY', { ID: 'LIBKIDS', NAME: 'Kids', ROOT: fileUrl('/data/kids/') });
  const series = (id: string, library: string, name: string, folder: string) => {
    insertRow(db, 'SERIES', { ID: id, FILE_LAST_MODIFIED: at, NAME: name, URL: fileUrl(folder), LIBRARY_ID: library });
    insertRow(db, 'SERIES_METADATA', { STATUS: 'ONGOING', TITLE: name, TITLE_SORT: name, SERIES_ID: id });
  };
  series('SSAGA', 'LIBCOMICS', 'Saga', '/data/comics/Saga/');
  series('SNOVELS', 'LIBCOMICS', 'Novels', '/data/comics/Novels/');
  series('SBLUEY', 'LIBKIDS', 'Bluey', '/data/kids/Bluey/');
  series('SSCARY', 'LIBKIDS', 'Scary', '/data/kids/Scary/');
  series('STITANS', 'LIBKIDS', 'Titans', '/data/kids/Titans/');
  const book = (
    id: string,
    series: string,
    library: string,
    path: string,
    source: HouseholdBook | null,
    hashed = true,
  ) => {
    const bytes = source?.bytes ?? new Uint8Array(1234);
    insertRow(db, 'BOOK', {
      ID: id,
      FILE_LAST_MODIFIED: at,
      NAME:
        path
          .split('/')
          .pop()
          ?.replace(/\.\w+$/, '') ?? id,
      URL: fileUrl(path),
      SERIES_ID: series,
      LIBRARY_ID: library,
      FILE_SIZE: bytes.length,
      FILE_HASH_KOREADER: hashed ? koreaderHash(bytes) : '',
    });
    insertRow(db, 'BOOK_METADATA', { NUMBER: '1', NUMBER_SORT: 1, TITLE: id, BOOK_ID: id });
    insertRow(db, 'MEDIA', { STATUS: 'READY', BOOK_ID: id, PAGE_COUNT: source?.pages ?? 1 });
  };
  book('BSAGA1', 'SSAGA', 'LIBCOMICS', '/data/comics/Saga/Saga 001.cbz', books.saga1 ?? null);
  book('BSAGA2', 'SSAGA', 'LIBCOMICS', '/data/comics/Saga/Saga 002.cbz', books.saga2 ?? null);
  book('BSAGA3', 'SSAGA', 'LIBCOMICS', '/data/comics/Saga/Saga 003.cbz', books.saga3 ?? null);
  book('BNOVEL', 'SNOVELS', 'LIBCOMICS', '/data/comics/Novels/The Book.epub', books.novel ?? null);
  book('BBLUEY1', 'SBLUEY', 'LIBKIDS', '/data/kids/Bluey/Bluey 01.cbz', books.bluey1 ?? null);
  book('BBLUEY2', 'SBLUEY', 'LIBKIDS', '/data/kids/Bluey/Bluey 02.cbz', books.bluey2 ?? null);
  // Komga computed no KOReader hash for this one: only its size and name can find it.
  book('BSCARY', 'SSCARY', 'LIBKIDS', '/data/kids/Scary/Scary 01.cbz', books.scary ?? null, false);
  book('BTITANS', 'STITANS', 'LIBKIDS', '/data/kids/Titans/Titans 01.cbz', books.titans ?? null);
  book('BGONE', 'SSAGA', 'LIBCOMICS', '/data/comics/Saga/Gone.cbz', null);

  // Edited by hand in Komga: a locked title, and the label that keeps the kid away from Scary.
  db.prepare(
    `UPDATE SERIES_METADATA SET TITLE = 'Saga (Image Comics)', TITLE_LOCK = 1 WHERE SERIES_ID = 'SSAGA'`,
  ).run();
  insertRow(db, 'SERIES_METADATA_SHARING', { LABEL: 'scary', SERIES_ID: 'SSCARY' });
  insertRow(db, 'THUMBNAIL_SERIES', {
    ID: 'TBLUEY',
    SERIES_ID: 'SBLUEY',
    TYPE: 'USER_UPLOADED',
    SELECTED: 1,
    THUMBNAIL: png(120, 180, 42),
    MEDIA_TYPE: 'image/png',
    WIDTH: 120,
    HEIGHT: 180,
  });

  const users = options.users ?? ['dad', 'mum', 'kid'];
  const user = (id: string, email: string, password: string, fields: Record<string, number | string | null> = {}) => {
    // Spring Security's BCryptPasswordEncoder writes the $2a$ variant (bcryptjs writes $2b$: the same hash).
    const hash = bcrypt.hashSync(password, 10).replace(/^\$2b\$/, '$2a$');
    insertRow(db, 'USER', { ID: id, EMAIL: email, PASSWORD: hash, CREATED_DATE: at, ...fields });
  };
  if (users.includes('dad')) {
    user('UDAD', 'dad@home.test', PASSWORDS.dad);
    insertRow(db, 'USER_ROLE', { USER_ID: 'UDAD', ROLE: 'ADMIN' });
    insertRow(db, 'READ_PROGRESS', {
      BOOK_ID: 'BBLUEY1',
      USER_ID: 'UDAD',
      PAGE: 2,
      COMPLETED: 0,
      CREATED_DATE: '2024-05-01 20:00:00',
      LAST_MODIFIED_DATE: '2024-05-01 20:05:00',
    });
  }
  if (users.includes('mum')) {
    user('UMUM', 'mum@home.test', PASSWORDS.mum);
    insertRow(db, 'USER_ROLE', { USER_ID: 'UMUM', ROLE: 'FILE_DOWNLOAD' });
    const progress = (
      book: string,
      page: number,
      completed: boolean,
      modified: string,
      extra: Record<string, unknown> = {},
    ) =>
      insertRow(db, 'READ_PROGRESS', {
        BOOK_ID: book,
        USER_ID: 'UMUM',
        PAGE: page,
        COMPLETED: completed ? 1 : 0,
        READ_DATE: modified,
        CREATED_DATE: '2024-05-01 08:00:00',
        LAST_MODIFIED_DATE: modified,
        ...(extra as Record<string, string>),
      });
    progress('BSAGA1', 4, true, '2024-05-02 21:00:00.250');
    progress('BSAGA2', 3, false, '2024-05-03 21:00:00');
    progress('BGONE', 1, false, '2024-05-03 21:00:00');
    // Komelia's last place in the EPUB: Komga keeps the Readium locator gzipped.
    const locator = {
      href: 'OEBPS/text/page2.xhtml',
      type: 'application/xhtml+xml',
      locations: { progression: 0.4, position: 6, totalProgression: 0.6 },
      text: { highlight: 'a dark and stormy night' },
    };
    progress('BNOVEL', 6, false, '2024-05-04 22:00:00', {
      locator: gzipSync(JSON.stringify(locator)) as unknown as string,
      device_id: 'komelia-tablet',
      device_name: 'Komelia',
    });
    insertRow(db, 'USER_API_KEY', {
      ID: 'KMUM',
      USER_ID: 'UMUM',
      API_KEY: await sha512(MUM_KOMGA_KEY),
      COMMENT: 'Mihon on the phone',
    });
  }
  if (users.includes('kid')) {
    user('UKID', 'kid@home.test', PASSWORDS.kid, {
      SHARED_ALL_LIBRARIES: 0,
      AGE_RESTRICTION: 10,
      AGE_RESTRICTION_ALLOW_ONLY: 1,
    });
    insertRow(db, 'USER_LIBRARY_SHARING', { USER_ID: 'UKID', LIBRARY_ID: 'LIBKIDS' });
    insertRow(db, 'USER_SHARING', { USER_ID: 'UKID', LABEL: 'scary', ALLOW: 0 });
    insertRow(db, 'READ_PROGRESS', {
      BOOK_ID: 'BBLUEY2',
      USER_ID: 'UKID',
      PAGE: 4,
      COMPLETED: 1,
      READ_DATE: '2024-05-05 18:00:00',
      CREATED_DATE: '2024-05-05 17:30:00',
      LAST_MODIFIED_DATE: '2024-05-05 18:00:00',
    });
  }

  // Server-wide lists: a read list out of reading order, an ordered collection.
  insertRow(db, 'READLIST', { ID: 'RARC', NAME: 'Saga arc', SUMMARY: 'Read in this order', BOOK_COUNT: 4, ORDERED: 1 });
  for (const [i, book] of ['BSAGA3', 'BSAGA1', 'BGONE', 'BSAGA2'].entries()) {
    insertRow(db, 'READLIST_BOOK', { READLIST_ID: 'RARC', BOOK_ID: book, NUMBER: i });
  }
  insertRow(db, 'COLLECTION', { ID: 'CFAV', NAME: 'Favourites', ORDERED: 1, SERIES_COUNT: 2 });
  for (const [i, series] of ['SBLUEY', 'SSAGA'].entries()) {
    insertRow(db, 'COLLECTION_SERIES', { COLLECTION_ID: 'CFAV', SERIES_ID: series, NUMBER: i });
  }
  return db;
}

/**
 * Kavita's view: one library "Manga" (/mnt/manga, Longbox's "Comics") with Saga (one file per chapter) and the
 * EPUB; "admin" (whose name Longbox's admin has too) and "sis", who reads Saga and the EPUB, keeps a private
 * reading list, a promoted collection, a series to read, and an OPDS key. Sis's password hash is ASP.NET Core
 * Identity's own test vector of "my password" (SHA-512, 100,000 iterations: .NET's default).
 */
export const SIS_PASSWORD = 'my password';
const SIS_HASH = 'AQAAAAIAAYagAAAAEAABAgMEBQYHCAkKCwwNDg/Q8A0WMKbtHQJQ2DHCdoEeeFBrgNlldq6vH4qX/CGqGQ==';

export function buildKavitaHousehold(file: string, books: Record<string, HouseholdBook>): DatabaseSync {
  const db = createKavitaDatabase(file);
  const run = (sql: string, ...params: Array<string | number | null>) => db.prepare(sql).run(...params);
  run(`INSERT INTO Library (Id, Name, Type) VALUES (1, 'Manga', 0)`);
  run(`INSERT INTO FolderPath (Path, LibraryId) VALUES ('/mnt/manga', 1)`);
  run(
    `INSERT INTO Series (Id, Name, SortName, SortNameLocked, LibraryId, CoverImage, CoverImageLocked) VALUES (1, 'Saga', 'Saga, The', 1, 1, 'series1.png', 1)`,
  );
  run(`INSERT INTO Series (Id, Name, SortName, LibraryId) VALUES (2, 'The Book', 'Book', 1)`);
  run(`INSERT INTO SeriesMetadata (SeriesId, Summary, SummaryLocked) VALUES (1, 'A space opera', 1), (2, '', 0)`);
  run(`INSERT INTO Volume (Id, Name, MinNumber, SeriesId) VALUES (1, '1', 1, 1), (2, '0', 0, 2)`);
  const file_ = (chapter: number, path: string, book: HouseholdBook | undefined, format: number) => {
    const bytes = book?.bytes ?? new Uint8Array(10);
    run(
      `INSERT INTO MangaFile (FileName, FilePath, Pages, Format, Bytes, Extension, KoreaderHash, ChapterId) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      path.split('/').pop() ?? path,
      path,
      book?.pages ?? 1,
      format,
      bytes.length,
      path.split('.').pop() ?? '',
      koreaderHash(bytes),
      chapter,
    );
  };
  [1, 2, 3].forEach((n) => {
    run(`INSERT INTO Chapter (Id, Range, Pages, SortOrder, VolumeId) VALUES (?, ?, 4, ?, 1)`, n, String(n), n);
    // Kavita's folders differ from Longbox's: found by KOReader hash.
    file_(n, `/mnt/manga/Saga Collection/Saga ${String(n).padStart(3, '0')}.cbz`, books[`saga${n}`], 1);
  });
  run(`INSERT INTO Chapter (Id, Range, Pages, SortOrder, VolumeId) VALUES (4, 'The Book', 3, 0, 2)`);
  file_(4, '/mnt/manga/Novels/The Book.epub', books.novel, 3);

  const user = (id: number, name: string, email: string | null, hash: string | null, key: string | null, age: number) =>
    run(
      `INSERT INTO AspNetUsers (Id, UserName, NormalizedUserName, Email, NormalizedEmail, EmailConfirmed, PasswordHash, ApiKey, AgeRestriction, AgeRestrictionIncludeUnknowns, Created, CreatedUtc, RowVersion) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, 0, '2024-02-01 10:00:00', '2024-02-01 10:00:00', 0)`,
      id,
      name,
      name.toUpperCase(),
      email,
      email?.toUpperCase() ?? null,
      hash,
      key,
      age,
    );
  user(1, 'admin', 'kavita-admin@home.test', SIS_HASH, null, -1);
  user(2, 'sis', 'sis@home.test', SIS_HASH, '8c1c0f0e-opds-key-of-sis', -1);
  const role = (userId: number, name: string) =>
    run(`INSERT INTO AspNetUserRoles (UserId, RoleId) SELECT ?, Id FROM AspNetRoles WHERE Name = ?`, userId, name);
  role(1, 'Admin');
  role(2, 'Pleb');
  role(2, 'Login');
  run(`INSERT INTO AppUserLibrary (AppUsersId, LibrariesId) VALUES (2, 1)`);

  const progress = (chapter: number, pages: number, modified: string) =>
    run(
      `INSERT INTO AppUserProgresses (PagesRead, VolumeId, SeriesId, LibraryId, ChapterId, Created, LastModified, CreatedUtc, LastModifiedUtc, AppUserId) VALUES (?, 1, 1, 1, ?, ?, ?, ?, ?, 2)`,
      pages,
      chapter,
      modified,
      modified,
      modified,
      modified,
    );
  progress(1, 3, '2024-06-01 10:00:00.1234567');
  progress(2, 4, '2024-06-02 10:00:00');
  // The EPUB's third spine item (Kavita's book reader counts them from 0).
  progress(4, 2, '2024-06-03 10:00:00');

  run(
    `INSERT INTO ReadingList (Id, Title, NormalizedTitle, Summary, Promoted, AgeRating, AppUserId) VALUES (1, 'Sis order', 'SISORDER', NULL, 0, 0, 2)`,
  );
  for (const [i, chapter] of [3, 1, 2].entries()) {
    run(
      `INSERT INTO ReadingListItem (SeriesId, VolumeId, ChapterId, "Order", ReadingListId) VALUES (1, 1, ?, ?, 1)`,
      chapter,
      i,
    );
  }
  run(
    `INSERT INTO AppUserCollection (Id, Title, NormalizedTitle, Summary, Promoted, AgeRating, AppUserId) VALUES (1, 'Best of', 'BESTOF', NULL, 1, 0, 2)`,
  );
  run(`INSERT INTO AppUserCollectionSeries (CollectionsId, ItemsId) VALUES (1, 1), (1, 2)`);
  run(`INSERT INTO AppUserWantToRead (SeriesId, AppUserId) VALUES (2, 2)`);
  return db;
}

/** The image Kavita keeps for Saga's locked cover (`covers/series1.png` in its config folder and backups). */
export const KAVITA_SERIES_COVER = png(100, 150, 77);

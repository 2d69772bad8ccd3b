/**
 * Reading a Komga `database.sqlite` (docs/DECISIONS.md §Coming from Komga or Kavita). The tables and columns are
 * those Komga's Flyway migrations create (gotson/komga `komga/src/flyway/resources/db/migration/sqlite`, vendored
 * for the tests in test/vendor/komga/); the schema version is the newest migration in `flyway_schema_history`,
 * and only versions this importer was written against are read.
 */
import { gunzipSync } from 'node:zlib';
import type {
  PeerApiKey,
  PeerBook,
  PeerBookMetadata,
  PeerCover,
  PeerLibrary,
  PeerList,
  PeerProgress,
  PeerSeriesMetadata,
  PeerSnapshot,
  PeerUser,
} from './peer';
import { assertPeerTables, peerSource, unknownSchemaVersion } from './peer-identity';
import { flag, PeerDatabase, text, utcInstant } from './sqlite';
import { uniqueUsername } from './usernames';

/** The Komga schema versions this importer reads, with the first Komga release that has each. */
export const KOMGA_KNOWN_VERSIONS: ReadonlyArray<{ version: string; komga: string }> = [
  { version: '20250108172343', komga: '1.17.0' },
  { version: '20250205151235', komga: '1.20.0' },
  { version: '20250730173126', komga: '1.23.1' },
  { version: '20260225161438', komga: '1.26.0' },
];

const knownList = () => KOMGA_KNOWN_VERSIONS.map((k) => `${k.version} (Komga ${k.komga})`).join(', ');

const DIRECTIONS: Record<string, string> = {
  LEFT_TO_RIGHT: 'ltr',
  RIGHT_TO_LEFT: 'rtl',
  VERTICAL: 'ttb',
  WEBTOON: 'webtoon',
};

/** A `file:` URL as Komga stores it (`file:/comics/a%20b.cbz`) as a path with `/` separators. */
export function pathOfFileUrl(url: string): string {
  const pathname = decodeURIComponent(new URL(url).pathname);
  // file:/C:/Comics/... on Windows.
  return /^\/[A-Za-z]:\//.test(pathname) ? pathname.slice(1) : pathname;
}

/** The schema version of a Komga database, checked: the message names what it saw and what it knows. */
function schemaVersion(db: PeerDatabase): { version: string; installedOn: string } {
  assertPeerTables(db, ['flyway_schema_history', 'BOOK'], 'database.sqlite in its config folder');
  const rows = db.all(
    'SELECT version, installed_on FROM flyway_schema_history WHERE success = 1 AND version IS NOT NULL',
  );
  const newest = rows
    .map((r) => text(r.version))
    .sort((a, b) => Number(a) - Number(b) || a.localeCompare(b))
    .at(-1);
  const first = db.get('SELECT installed_on FROM flyway_schema_history ORDER BY installed_rank LIMIT 1');
  if (!newest || !KOMGA_KNOWN_VERSIONS.some((k) => k.version === newest)) {
    const newer = newest !== undefined && Number(newest) > Number(KOMGA_KNOWN_VERSIONS.at(-1)?.version);
    throw unknownSchemaVersion(db, { seen: newest ?? '(none)', known: knownList(), newer });
  }
  return { version: newest, installedOn: text(first?.installed_on) };
}

export function readKomga(file: string): PeerSnapshot {
  const db = PeerDatabase.open(file, 'Komga');
  try {
    const { version, installedOn } = schemaVersion(db);
    // The database's creation time names this Komga instance across runs (and copies of the file).
    const source = peerSource('komga', installedOn);
    const libraries: PeerLibrary[] = db
      .all('SELECT ID, NAME, ROOT FROM LIBRARY ORDER BY NAME')
      .map((row) => ({ id: text(row.ID), name: text(row.NAME), roots: [pathOfFileUrl(text(row.ROOT))] }));
    const books: PeerBook[] = db
      .all('SELECT ID, NAME, URL, SERIES_ID, LIBRARY_ID, FILE_SIZE, FILE_HASH_KOREADER FROM BOOK')
      .map((row) => {
        const path = pathOfFileUrl(text(row.URL));
        return {
          id: text(row.ID),
          libraryId: text(row.LIBRARY_ID),
          seriesId: text(row.SERIES_ID),
          path,
          fileName: path.split('/').pop() ?? path,
          fileSize: row.FILE_SIZE === null ? null : Number(row.FILE_SIZE),
          readerHash: text(row.FILE_HASH_KOREADER) || null,
        };
      });
    return {
      kind: 'komga',
      source,
      schemaVersion: version,
      libraries,
      books,
      users: users(db),
      progress: progress(db),
      lists: lists(db),
      wantToRead: [],
      seriesMetadata: seriesMetadata(db),
      bookMetadata: bookMetadata(db),
      covers: covers(db),
      apiKeys: db.all('SELECT ID, USER_ID, API_KEY, COMMENT, CREATED_DATE FROM USER_API_KEY').map(
        (row): PeerApiKey => ({
          id: text(row.ID),
          userId: text(row.USER_ID),
          name: text(row.COMMENT) || 'Komga API key',
          sha512: text(row.API_KEY).toLowerCase(),
          createdAt: utcInstant(row.CREATED_DATE),
        }),
      ),
    };
  } finally {
    db.close();
  }
}

function grouped(rows: Array<Record<string, unknown>>, key: string, value: string): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  for (const row of rows) byKey.set(text(row[key]), [...(byKey.get(text(row[key])) ?? []), text(row[value])]);
  return byKey;
}

/** Komga's users: accounts are e-mail addresses; the Longbox name is the address's local part (made unique). */
function users(db: PeerDatabase): PeerUser[] {
  const roles = grouped(db.all('SELECT USER_ID, ROLE FROM USER_ROLE'), 'USER_ID', 'ROLE');
  const libraries = grouped(db.all('SELECT USER_ID, LIBRARY_ID FROM USER_LIBRARY_SHARING'), 'USER_ID', 'LIBRARY_ID');
  const sharing = db.all('SELECT USER_ID, LABEL, ALLOW FROM USER_SHARING');
  const taken = new Set<string>();
  return db
    .all(
      'SELECT ID, EMAIL, PASSWORD, SHARED_ALL_LIBRARIES, AGE_RESTRICTION, AGE_RESTRICTION_ALLOW_ONLY FROM "USER" ORDER BY CREATED_DATE, ID',
    )
    .map((row) => {
      const id = text(row.ID);
      const email = text(row.EMAIL).toLowerCase();
      const age =
        row.AGE_RESTRICTION === null || row.AGE_RESTRICTION === undefined ? null : Number(row.AGE_RESTRICTION);
      const labels = (allow: boolean) =>
        sharing.filter((s) => text(s.USER_ID) === id && flag(s.ALLOW) === allow).map((s) => text(s.LABEL));
      return {
        id,
        username: uniqueUsername(email.split('@')[0] ?? email, taken),
        email,
        role: roles.get(id)?.includes('ADMIN') ? 'admin' : 'reader',
        active: true,
        password: text(row.PASSWORD) ? { format: 'bcrypt', hash: text(row.PASSWORD) } : null,
        sharedAllLibraries: flag(row.SHARED_ALL_LIBRARIES),
        libraryIds: libraries.get(id) ?? [],
        ageRestriction:
          age === null ? null : { age, restriction: flag(row.AGE_RESTRICTION_ALLOW_ONLY) ? 'ALLOW_ONLY' : 'EXCLUDE' },
        labelsAllow: labels(true),
        labelsExclude: labels(false),
        notes: [],
        opdsKey: false,
      };
    });
}

/** Komga's Readium locator (a gzipped JSON blob since 1.x), as the JSON Longbox keeps. */
function locatorOf(blob: unknown): { json: string; totalProgression: number | null } | null {
  if (!(blob instanceof Uint8Array) || blob.length === 0) return null;
  try {
    const json = gunzipSync(blob).toString('utf8');
    const parsed = JSON.parse(json) as { locations?: { totalProgression?: unknown } };
    const total = parsed.locations?.totalProgression;
    return { json, totalProgression: typeof total === 'number' && total >= 0 && total <= 1 ? total : null };
  } catch {
    return null;
  }
}

function progress(db: PeerDatabase): PeerProgress[] {
  return db
    .all(
      'SELECT BOOK_ID, USER_ID, CREATED_DATE, LAST_MODIFIED_DATE, PAGE, COMPLETED, READ_DATE, device_id, device_name, locator FROM READ_PROGRESS',
    )
    .map((row) => {
      const locator = locatorOf(row.locator);
      const completed = flag(row.COMPLETED);
      const updatedAt = utcInstant(row.LAST_MODIFIED_DATE);
      return {
        userId: text(row.USER_ID),
        bookId: text(row.BOOK_ID),
        page: Math.max(0, Number(row.PAGE)),
        completed,
        startedAt: utcInstant(row.CREATED_DATE, updatedAt),
        updatedAt,
        completedAt: completed ? utcInstant(row.READ_DATE, updatedAt) : null,
        percentage: locator?.totalProgression ?? null,
        locator: locator?.json ?? null,
        epubSpineIndex: null,
        device: text(row.device_id) ? { id: text(row.device_id), name: text(row.device_name) } : null,
      };
    });
}

/** Komga's collections and read lists are server-wide: shared lists here. */
function lists(db: PeerDatabase): PeerList[] {
  const seriesOf = grouped(
    db.all('SELECT COLLECTION_ID, SERIES_ID FROM COLLECTION_SERIES ORDER BY COLLECTION_ID, NUMBER'),
    'COLLECTION_ID',
    'SERIES_ID',
  );
  const booksOf = grouped(
    db.all('SELECT READLIST_ID, BOOK_ID FROM READLIST_BOOK ORDER BY READLIST_ID, NUMBER'),
    'READLIST_ID',
    'BOOK_ID',
  );
  return [
    ...db.all('SELECT ID, NAME, ORDERED FROM COLLECTION ORDER BY NAME').map(
      (row): PeerList => ({
        id: text(row.ID),
        kind: 'collection',
        ownerId: null,
        name: text(row.NAME),
        summary: null,
        ordered: flag(row.ORDERED),
        memberIds: seriesOf.get(text(row.ID)) ?? [],
      }),
    ),
    ...db.all('SELECT ID, NAME, SUMMARY, ORDERED FROM READLIST ORDER BY NAME').map(
      (row): PeerList => ({
        id: text(row.ID),
        kind: 'readList',
        ownerId: null,
        name: text(row.NAME),
        summary: text(row.SUMMARY) || null,
        ordered: flag(row.ORDERED),
        memberIds: booksOf.get(text(row.ID)) ?? [],
      }),
    ),
  ];
}

const orNull = (value: unknown) => (text(value) === '' ? null : text(value));

/** What a Komga admin locked on a series (its *_LOCK columns), and its sharing labels. */
function seriesMetadata(db: PeerDatabase): PeerSeriesMetadata[] {
  const genres = grouped(db.all('SELECT SERIES_ID, GENRE FROM SERIES_METADATA_GENRE'), 'SERIES_ID', 'GENRE');
  const tags = grouped(db.all('SELECT SERIES_ID, TAG FROM SERIES_METADATA_TAG'), 'SERIES_ID', 'TAG');
  const labels = grouped(db.all('SELECT SERIES_ID, LABEL FROM SERIES_METADATA_SHARING'), 'SERIES_ID', 'LABEL');
  return db.all('SELECT * FROM SERIES_METADATA').flatMap((row) => {
    const id = text(row.SERIES_ID);
    const locked: Record<string, unknown> = {};
    if (flag(row.TITLE_LOCK)) locked.title = text(row.TITLE);
    if (flag(row.TITLE_SORT_LOCK)) locked.titleSort = text(row.TITLE_SORT);
    if (flag(row.SUMMARY_LOCK)) locked.summary = orNull(row.SUMMARY);
    if (flag(row.PUBLISHER_LOCK)) locked.publisher = orNull(row.PUBLISHER);
    if (flag(row.LANGUAGE_LOCK)) locked.language = orNull(row.LANGUAGE);
    if (flag(row.STATUS_LOCK)) locked.status = text(row.STATUS).toLowerCase() || null;
    if (flag(row.READING_DIRECTION_LOCK)) locked.readingDirection = DIRECTIONS[text(row.READING_DIRECTION)] ?? null;
    if (flag(row.TOTAL_BOOK_COUNT_LOCK))
      locked.totalBookCount = row.TOTAL_BOOK_COUNT === null ? null : Number(row.TOTAL_BOOK_COUNT);
    if (flag(row.GENRES_LOCK)) locked.genres = genres.get(id) ?? [];
    if (flag(row.TAGS_LOCK)) locked.tags = tags.get(id) ?? [];
    if (flag(row.AGE_RATING_LOCK) && row.AGE_RATING !== null) locked.ageRating = Number(row.AGE_RATING);
    const sharingLabels = labels.get(id) ?? [];
    return Object.keys(locked).length === 0 && sharingLabels.length === 0
      ? []
      : [{ seriesId: id, locked, sharingLabels }];
  });
}

function bookMetadata(db: PeerDatabase): PeerBookMetadata[] {
  const tags = grouped(db.all('SELECT BOOK_ID, TAG FROM BOOK_METADATA_TAG'), 'BOOK_ID', 'TAG');
  return db.all('SELECT * FROM BOOK_METADATA').flatMap((row) => {
    const id = text(row.BOOK_ID);
    const locked: Record<string, unknown> = {};
    if (flag(row.TITLE_LOCK)) locked.title = text(row.TITLE);
    if (flag(row.SUMMARY_LOCK)) locked.summary = orNull(row.SUMMARY);
    if (flag(row.NUMBER_SORT_LOCK)) locked.numberSort = Number(row.NUMBER_SORT);
    if (flag(row.ISBN_LOCK)) locked.isbn = orNull(row.ISBN);
    if (flag(row.TAGS_LOCK)) locked.tags = tags.get(id) ?? [];
    if (flag(row.RELEASE_DATE_LOCK)) {
      const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(text(row.RELEASE_DATE));
      Object.assign(
        locked,
        date ? { year: Number(date[1]), month: Number(date[2]), day: Number(date[3]) } : { year: null },
      );
    }
    return Object.keys(locked).length === 0 ? [] : [{ bookId: id, locked }];
  });
}

/** Covers a Komga user uploaded (`USER_UPLOADED`, kept in the database itself), the selected one last. */
function covers(db: PeerDatabase): PeerCover[] {
  const of = (table: string, owner: string, kind: PeerCover['kind']) =>
    db
      .all(
        `SELECT ID, ${owner} AS OWNER, THUMBNAIL FROM ${table} WHERE TYPE = 'USER_UPLOADED' AND THUMBNAIL IS NOT NULL ORDER BY SELECTED, CREATED_DATE`,
      )
      .map((row): PeerCover => {
        const bytes = row.THUMBNAIL as Uint8Array;
        return { id: text(row.ID), kind, ownerId: text(row.OWNER), read: async () => bytes };
      });
  return [...of('THUMBNAIL_SERIES', 'SERIES_ID', 'series'), ...of('THUMBNAIL_BOOK', 'BOOK_ID', 'book')];
}

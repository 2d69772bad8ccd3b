/**
 * What a Kobo e-reader has and what it should get (DECISIONS.md §Kobo e-readers). A device is an API key; its
 * rows (kobo_device_books, kobo_device_shelves) say what each sync page sent it and at which generation. A sync
 * page compares them with the books the key's owner may see — through the catalog query layer's Viewer, like
 * every other read — and sends the difference: books new or changed since they were sent, books gone, reading
 * states moved elsewhere, shelves made, changed or emptied. A row written by a page the device never
 * acknowledged (its token names an earlier generation) counts as not sent.
 *
 * Each sync page is one batch of reads (the diff) and one batch of writes (what it sent).
 */
import { and, eq, lte, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { bookPages, books, koboDeviceBooks, koboDeviceShelves } from '../db/schema';
import type { CreditedAuthor } from '../db/tables/metadata-values';
import type { AlongsideWrite, BookCondition } from './read-progress.repository';
import { type Viewer, visibleBooks } from './visibility';

/** The user preference naming the collections and read lists a Kobo syncs (null: the whole library). */
export const KOBO_SHELVES_PREFERENCE = 'kobo.shelves';

/** What the device gets of a book: its metadata, the version it was sent at, and the user's progress. */
export interface KoboBookRow {
  id: string;
  title: string;
  summary: string | null;
  authors: CreditedAuthor[];
  isbn: string | null;
  language: string | null;
  publisher: string | null;
  year: number | null;
  month: number | null;
  day: number | null;
  number: number | null;
  numberSort: number | null;
  seriesId: string;
  seriesTitle: string;
  fileFormat: 'epub' | 'cbz' | 'cbr';
  fileSize: number;
  fileName: string;
  pageCount: number;
  epubLayout: 'image' | 'reflowable' | null;
  readingDirection: 'ltr' | 'rtl' | 'ttb' | 'webtoon' | null;
  createdAt: string;
  updatedAt: string;
  fileModifiedAt: string;
  /** Changes when the book's cover does (a new thumbnail, an uploaded cover selected). */
  coverVersion: string;
  fingerprint: string;
  /** Comics: `[number, mediaType, width, height, data bytes]` per page, as JSON; null for EPUBs. */
  pages: string | null;
  /** A comic whose pages an EPUB cannot hold (none, or of a type the device cannot be sent): never sent. */
  withheld: boolean;
  /** What the device was told of the book before, if anything. */
  deviceState: 'sent' | 'removed' | 'withheld' | null;
  deviceGeneration: number | null;
  progress: KoboProgressRow | null;
}

export interface KoboProgressRow {
  currentPage: number;
  completed: boolean;
  completedAt: string | null;
  progressPercentage: number | null;
  locator: string | null;
  deviceId: string | null;
  startedAt: string;
  updatedAt: string;
}

/** A book the device has whose reading state moved since it was last sent (progress null: now unread). */
export interface KoboStateRow {
  bookId: string;
  createdAt: string;
  pageCount: number;
  fileFormat: 'epub' | 'cbz' | 'cbr';
  epubLayout: 'image' | 'reflowable' | null;
  progress: KoboProgressRow | null;
}

/** A collection or read list as a shelf: its books the device gets, in the list's order. */
export interface KoboShelfRow {
  id: string;
  kind: 'collection' | 'readlist';
  name: string;
  createdAt: string;
  updatedAt: string;
  bookIds: string[];
}

export interface KoboDeviceShelfRow {
  listId: string;
  state: 'sent' | 'removed';
  fingerprint: string;
  generation: number;
}

/** What one sync page reads, in one batch: at most `limit + 1` of each kind, so the page knows if more follow. */
export interface KoboDiff {
  books: KoboBookRow[];
  /** Books the device has that it may no longer have (gone, hidden, out of its shelves), or removals it never got. */
  removals: Array<{ bookId: string }>;
  states: KoboStateRow[];
  shelves: KoboShelfRow[];
  deviceShelves: KoboDeviceShelfRow[];
}

/** What one sync page sent, written in one batch. */
export interface KoboPageWrite {
  apiKeyId: string;
  generation: number;
  /** The generation the device acknowledged: removals it has are forgotten. */
  acknowledged: number;
  sent: Array<{ bookId: string; fingerprint: string; progressAt: string | null }>;
  withheld: Array<{ bookId: string; fingerprint: string }>;
  removed: string[];
  states: Array<{ bookId: string; progressAt: string | null }>;
  shelves: Array<{ listId: string; fingerprint: string }>;
  shelvesRemoved: string[];
}

/** A book as the device downloads it: its row, its file as scanned and, for a comic, its page index. */
export interface KoboDownloadSource {
  book: KoboBookRow;
  file: {
    path: string;
    fileName: string;
    fileFormat: 'epub' | 'cbz' | 'cbr';
    fileSize: number;
    etag: string;
    fileModifiedAt: string;
    containerIndex: unknown;
  };
  pages: Array<{ number: number; mediaType: string; width: number | null; height: number | null; locator: unknown }>;
}

/** Who the diff is for: the viewer (the key's owner, narrowed by the key), the device, and what it acknowledged. */
export interface KoboDevice {
  viewer: Viewer;
  apiKeyId: string;
  acknowledged: number;
}

const EPUB_READY = sql`books.deleted_at IS NULL AND books.analysis_error IS NULL AND books.analyzed = 1
  AND books.page_count > 0 AND books.file_format IN ('epub', 'cbz', 'cbr')`;

/** The user's shelves preference (JSON), or NULL when the whole library syncs. */
const shelvesPreference = (userId: string) => sql`(SELECT nullif(up.value, 'null') FROM user_preferences up
  WHERE up.user_id = ${userId} AND up.key = ${KOBO_SHELVES_PREFERENCE})`;

/**
 * The book is in the device's scope: the whole library, or the books of the collections and read lists the
 * user chose (the preference is read inside the statement, so it costs no read of its own).
 */
function inShelves(userId: string): SQL {
  const chosen = shelvesPreference(userId);
  return sql`(${chosen} IS NULL
    OR books.id IN (SELECT rlb.book_id FROM read_list_books rlb
      WHERE rlb.read_list_id IN (SELECT value FROM json_each(${chosen}, '$.readListIds')))
    OR books.series_id IN (SELECT cs.series_id FROM collection_series cs
      WHERE cs.collection_id IN (SELECT value FROM json_each(${chosen}, '$.collectionIds'))))`;
}

/** A book the device may have: live, read without error, an EPUB or a comic, visible to the viewer, in scope. */
const deliverable = (viewer: Viewer) =>
  sql`${EPUB_READY} AND ${visibleBooks(viewer, { seriesId: sql`books.series_id`, libraryId: sql`books.library_id` })}
    AND ${inShelves(viewer.userId)}`;

/**
 * A comic an EPUB cannot hold: without pages, or with a page of a type outside `pageTypes` (what the EPUB may
 * carry, as media/comic-epub `epubPageTypes` says; one JSON parameter). Such a book is recorded as withheld.
 */
const withheld = (pageTypes: readonly string[]) => sql`(books.file_format IN ('cbz', 'cbr')
  AND (NOT EXISTS (SELECT 1 FROM book_pages p WHERE p.book_id = books.id)
    OR EXISTS (SELECT 1 FROM book_pages p WHERE p.book_id = books.id
      AND p.media_type NOT IN (SELECT value FROM json_each(${JSON.stringify(pageTypes)})))))`;

/**
 * The version of a book as the device shows it: its row (every edit, analysis and file change moves
 * updated_at), its file, its cover and its series' name. A different value re-sends the book.
 */
const BOOK_FINGERPRINT = sql`books.updated_at || '|' || books.etag || '|' || coalesce(books.thumbnail_updated_at, '')
  || '|' || coalesce((SELECT c.id || c.updated_at FROM covers c WHERE c.book_id = books.id AND c.selected = 1), '')
  || '|' || series.title`;

const COVER_VERSION = sql`coalesce((SELECT c.id FROM covers c WHERE c.book_id = books.id AND c.selected = 1),
  coalesce(books.thumbnail_updated_at, books.updated_at))`;

/** A comic's pages as the EPUB's layout needs them (the bytes each image takes: compressed for CBZ, unpacked for CBR). */
const COMIC_PAGES = sql`CASE WHEN books.file_format IN ('cbz', 'cbr') THEN (SELECT json_group_array(json_array(
    p.number, p.media_type, p.width, p.height,
    CASE books.file_format WHEN 'cbz' THEN json_extract(p.locator, '$.compressedSize') ELSE json_extract(p.locator, '$.size') END))
  FROM book_pages p WHERE p.book_id = books.id) END`;

/** The user's progress on the book as one JSON object (NULL without progress), parsed by progressOf. */
const PROGRESS = sql`CASE WHEN rp.book_id IS NULL THEN NULL ELSE json_object('currentPage', rp.current_page,
  'completed', rp.completed = 1, 'completedAt', rp.completed_at, 'progressPercentage', rp.progress_percentage,
  'locator', rp.locator, 'deviceId', rp.device_id, 'startedAt', rp.started_at, 'updatedAt', rp.updated_at) END`;

const RAW_BOOK_COLUMNS: ReadonlyArray<keyof RawBook & string> = [
  'id',
  'title',
  'summary',
  'authors',
  'isbn',
  'language',
  'publisher',
  'year',
  'month',
  'day',
  'number',
  'numberSort',
  'seriesId',
  'seriesTitle',
  'fileFormat',
  'fileSize',
  'fileName',
  'pageCount',
  'epubLayout',
  'readingDirection',
  'createdAt',
  'updatedAt',
  'fileModifiedAt',
  'coverVersion',
  'fingerprint',
  'pages',
  'withheld',
  'deviceState',
  'deviceGeneration',
  'progress',
];

const bookColumns = (
  pageTypes: readonly string[],
) => sql`books.id AS "id", books.title AS "title", books.summary AS "summary",
  books.authors AS "authors", books.isbn AS "isbn", books.language AS "language", books.publisher AS "publisher",
  books.year AS "year", books.month AS "month", books.day AS "day", books.number AS "number",
  books.number_sort AS "numberSort", books.series_id AS "seriesId", series.title AS "seriesTitle",
  books.file_format AS "fileFormat", books.file_size AS "fileSize", books.file_name AS "fileName",
  books.page_count AS "pageCount", books.epub_layout AS "epubLayout",
  coalesce(series.reading_direction, books.reading_direction, libraries.default_reading_direction) AS "readingDirection",
  books.created_at AS "createdAt", books.updated_at AS "updatedAt", books.file_modified_at AS "fileModifiedAt",
  ${COVER_VERSION} AS "coverVersion", ${BOOK_FINGERPRINT} AS "fingerprint", ${COMIC_PAGES} AS "pages",
  ${withheld(pageTypes)} AS "withheld"`;

const progressOf = (json: string | null): KoboProgressRow | null =>
  json === null ? null : (JSON.parse(json) as KoboProgressRow);

type RawBook = Omit<KoboBookRow, 'progress' | 'authors' | 'withheld'> & {
  authors: string;
  progress: string | null;
  withheld: number;
};

const bookOf = (raw: RawBook): KoboBookRow => ({
  ...raw,
  withheld: Boolean(raw.withheld),
  authors: parseAuthorsJson(raw.authors),
  progress: progressOf(raw.progress),
});

function parseAuthorsJson(text: string | null): CreditedAuthor[] {
  try {
    const parsed: unknown = text ? JSON.parse(text) : [];
    return Array.isArray(parsed) ? parsed.filter((a) => a && typeof a.name === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * A hand-written SELECT, read through a drizzle select over it so that a D1 batch can run it (drizzle binds
 * no parameters of a raw `db.all` inside a batch). Each of `columns` is a column alias of `query`, read as is.
 */
function selectFrom<T>(db: Database, columns: ReadonlyArray<keyof T & string>, query: SQL) {
  const fields: Record<string, SQL> = Object.fromEntries(columns.map((column) => [column, sql.raw(`q."${column}"`)]));
  return db.select(fields).from(sql`(${query}) AS q`);
}

/** The rows of a selectFrom, as the type its columns were named from. */
const rowsOf = <T>(rows: readonly unknown[]) => rows as T[];

/** The statement that reads books with everything the device is sent of them. */
function booksQuery(db: Database, pageTypes: readonly string[], device: KoboDevice, where: SQL, limit: number) {
  const { viewer, apiKeyId } = device;
  return selectFrom<RawBook>(
    db,
    RAW_BOOK_COLUMNS,
    sql`SELECT ${bookColumns(pageTypes)}, d.state AS "deviceState", d.generation AS "deviceGeneration",
      ${PROGRESS} AS "progress"
    FROM books JOIN series ON series.id = books.series_id JOIN libraries ON libraries.id = books.library_id
    LEFT JOIN kobo_device_books d ON d.api_key_id = ${apiKeyId} AND d.book_id = books.id
    LEFT JOIN read_progress rp ON rp.user_id = ${viewer.userId} AND rp.book_id = books.id
    WHERE ${deliverable(viewer)} AND ${where}
    ORDER BY books.id LIMIT ${limit}`,
  );
}

export class KoboSyncRepository {
  /** `pageTypes`: the comic page types an EPUB sent to a Kobo may carry (media/comic-epub `epubPageTypes`). */
  constructor(
    private readonly db: Database,
    private readonly pageTypes: readonly string[],
  ) {}

  /**
   * A book the device may have and be sent, as a condition over `books` for a write that reads its book in its own
   * statement (a reading state the device sends): what `book` finds.
   */
  deliverableBook(device: KoboDevice): BookCondition {
    return sql`(${deliverable(device.viewer)} AND NOT ${withheld(this.pageTypes)})`;
  }

  /** What one sync page sends, in one batch of reads: at most `limit + 1` rows of each kind. */
  async diff(device: KoboDevice, limit: number): Promise<KoboDiff> {
    const { viewer, apiKeyId, acknowledged } = device;
    const more = limit + 1;
    const changed = sql`(d.book_id IS NULL OR d.fingerprint <> ${BOOK_FINGERPRINT} OR d.state = 'removed'
      OR (d.state = 'sent' AND d.generation > ${acknowledged}))`;
    const removals = selectFrom<{ bookId: string }>(
      this.db,
      ['bookId'],
      sql`SELECT d.book_id AS "bookId" FROM kobo_device_books d
      WHERE d.api_key_id = ${apiKeyId} AND (
        (d.state = 'sent' AND NOT EXISTS (SELECT 1 FROM books JOIN series ON series.id = books.series_id
          WHERE books.id = d.book_id AND ${deliverable(viewer)}))
        OR (d.state = 'removed' AND d.generation > ${acknowledged}))
      ORDER BY d.book_id LIMIT ${more}`,
    );
    // Reading states moved since they were sent, on books the device acknowledged (a state the device wrote
    // itself is recorded as sent to it: progressSent).
    type RawState = Omit<KoboStateRow, 'progress'> & { progress: string | null };
    const stateColumns = ['bookId', 'createdAt', 'pageCount', 'fileFormat', 'epubLayout', 'progress'] as const;
    const states = selectFrom<RawState>(
      this.db,
      stateColumns,
      sql`SELECT
        d.book_id AS "bookId", books.created_at AS "createdAt", books.page_count AS "pageCount",
        books.file_format AS "fileFormat", books.epub_layout AS "epubLayout", ${PROGRESS} AS "progress"
      FROM kobo_device_books d JOIN books ON books.id = d.book_id
      LEFT JOIN read_progress rp ON rp.user_id = ${viewer.userId} AND rp.book_id = d.book_id
      WHERE d.api_key_id = ${apiKeyId} AND d.state = 'sent' AND d.generation <= ${acknowledged}
        AND rp.updated_at IS NOT d.progress_at
      ORDER BY d.book_id LIMIT ${more}`,
    );
    const [bookRows, removalRows, stateRows, shelfRows, deviceShelves] = await this.db.batch([
      booksQuery(this.db, this.pageTypes, device, changed, more),
      removals,
      states,
      this.shelvesQuery(device),
      this.db
        .select({
          listId: koboDeviceShelves.listId,
          state: koboDeviceShelves.state,
          fingerprint: koboDeviceShelves.fingerprint,
          generation: koboDeviceShelves.generation,
        })
        .from(koboDeviceShelves)
        .where(eq(koboDeviceShelves.apiKeyId, apiKeyId)),
    ]);
    type RawShelf = Omit<KoboShelfRow, 'bookIds'> & { bookIds: string };
    return {
      books: rowsOf<RawBook>(bookRows).map(bookOf),
      removals: rowsOf<{ bookId: string }>(removalRows),
      states: rowsOf<RawState>(stateRows).map((row) => ({ ...row, progress: progressOf(row.progress) })),
      shelves: rowsOf<RawShelf>(shelfRows).map((row) => ({ ...row, bookIds: JSON.parse(row.bookIds) as string[] })),
      deviceShelves,
    };
  }

  /**
   * The shelves the device gets: the lists the user chose, or every read list and collection (smart collections
   * are rules, not shelves) — each with the books the device gets from it, in the list's order.
   */
  private shelvesQuery(device: KoboDevice) {
    const { viewer, apiKeyId } = device;
    const chosen = shelvesPreference(viewer.userId);
    const onDevice = sql`NOT EXISTS (SELECT 1 FROM kobo_device_books w WHERE w.api_key_id = ${apiKeyId}
      AND w.book_id = books.id AND w.state = 'withheld')`;
    const columns = ['kind', 'id', 'name', 'createdAt', 'updatedAt', 'bookIds'] as const;
    return selectFrom<Omit<KoboShelfRow, 'bookIds'> & { bookIds: string }>(
      this.db,
      columns,
      sql`
      SELECT 'readlist' AS "kind", rl.id AS "id", rl.name AS "name", rl.created_at AS "createdAt",
        rl.updated_at AS "updatedAt",
        (SELECT json_group_array(x.id) FROM (SELECT books.id AS id FROM read_list_books rlb
          JOIN books ON books.id = rlb.book_id JOIN series ON series.id = books.series_id
          WHERE rlb.read_list_id = rl.id AND ${deliverable(viewer)} AND ${onDevice}
          ORDER BY rlb.position, books.id) x) AS "bookIds"
      FROM read_lists rl
      WHERE ${chosen} IS NULL OR rl.id IN (SELECT value FROM json_each(${chosen}, '$.readListIds'))
      UNION ALL
      SELECT 'collection' AS "kind", c.id AS "id", c.name AS "name", c.created_at AS "createdAt",
        c.updated_at AS "updatedAt",
        (SELECT json_group_array(x.id) FROM (SELECT books.id AS id FROM collection_series cs
          JOIN books ON books.series_id = cs.series_id JOIN series ON series.id = books.series_id
          WHERE cs.collection_id = c.id AND ${deliverable(viewer)} AND ${onDevice}
          ORDER BY cs.position, books.number_sort IS NULL, books.number_sort, books.sort_key, books.id) x) AS "bookIds"
      FROM collections c
      WHERE c.rule IS NULL AND (${chosen} IS NULL OR c.id IN (SELECT value FROM json_each(${chosen}, '$.collectionIds')))`,
    );
  }

  /** One book as the device gets it (metadata, reading state), if the viewer may see it and it can go to a Kobo. */
  async book(device: KoboDevice, bookId: string): Promise<KoboBookRow | undefined> {
    const [row] = rowsOf<RawBook>(await booksQuery(this.db, this.pageTypes, device, sql`books.id = ${bookId}`, 1));
    return row ? bookOf(row) : undefined;
  }

  /**
   * What a download needs, in one batch: the book as the sync sent it, its file as scanned, and a comic's page
   * index (what writing it as an EPUB reads). Undefined when the device cannot have the book.
   */
  async downloadSource(device: KoboDevice, bookId: string): Promise<KoboDownloadSource | undefined> {
    const [rows, files, pages] = await this.db.batch([
      booksQuery(this.db, this.pageTypes, device, sql`books.id = ${bookId}`, 1),
      this.db
        .select({
          path: books.path,
          fileName: books.fileName,
          fileFormat: books.fileFormat,
          fileSize: books.fileSize,
          etag: books.etag,
          fileModifiedAt: books.fileModifiedAt,
          containerIndex: books.containerIndex,
        })
        .from(books)
        .where(eq(books.id, bookId)),
      this.db
        .select({
          number: bookPages.number,
          mediaType: bookPages.mediaType,
          width: bookPages.width,
          height: bookPages.height,
          locator: bookPages.locator,
        })
        .from(bookPages)
        .where(
          and(
            eq(bookPages.bookId, bookId),
            sql`EXISTS (SELECT 1 FROM books b WHERE b.id = ${bookId}
          AND b.file_format IN ('cbz', 'cbr'))`,
          ),
        )
        .orderBy(bookPages.number),
    ]);
    const [book] = rowsOf<RawBook>(rows);
    const file = files[0];
    if (!book || !file) return undefined;
    return { book: bookOf(book), file: file as KoboDownloadSource['file'], pages };
  }

  /**
   * The device now holds the reading state it wrote (`at`: the progress's new updated_at; null: it cleared it),
   * written beside that progress so it is not sent back to it — only when `written`, the progress write's own
   * condition over `books`, holds (read-progress.repository `GuardedAlongside`).
   */
  progressSent(apiKeyId: string, bookId: string, at: string | null, written: SQL): AlongsideWrite {
    return this.db
      .update(koboDeviceBooks)
      .set({ progressAt: at })
      .where(
        and(
          eq(koboDeviceBooks.apiKeyId, apiKeyId),
          eq(koboDeviceBooks.bookId, bookId),
          sql`EXISTS (SELECT 1 FROM ${books} WHERE ${written})`,
        ),
      );
  }

  /** Records what a sync page sent, in one batch. */
  async recordPage(page: KoboPageWrite): Promise<void> {
    const { apiKeyId, generation } = page;
    const rows = (values: unknown[][]) => sql`json_each(${JSON.stringify(values)})`;
    const statements = [];
    const bookRows = [
      ...page.sent.map((b) => [b.bookId, 'sent', b.fingerprint, b.progressAt]),
      ...page.withheld.map((b) => [b.bookId, 'withheld', b.fingerprint, null]),
    ];
    if (bookRows.length > 0) {
      statements.push(
        this.db
          .insert(koboDeviceBooks)
          .select(
            sql`SELECT ${apiKeyId}, r.value ->> 0, r.value ->> 1, r.value ->> 2, ${generation}, r.value ->> 3
              FROM ${rows(bookRows)} r WHERE true`,
          )
          .onConflictDoUpdate({
            target: [koboDeviceBooks.apiKeyId, koboDeviceBooks.bookId],
            set: {
              state: sql`excluded.state`,
              fingerprint: sql`excluded.fingerprint`,
              generation: sql`excluded.generation`,
              progressAt: sql`excluded.progress_at`,
            },
          }),
      );
    }
    if (page.removed.length > 0) {
      statements.push(
        this.db
          .update(koboDeviceBooks)
          .set({ state: 'removed', generation, progressAt: null })
          .where(
            and(
              eq(koboDeviceBooks.apiKeyId, apiKeyId),
              sql`${koboDeviceBooks.bookId} IN (SELECT value FROM json_each(${JSON.stringify(page.removed)}))`,
            ),
          ),
      );
    }
    if (page.states.length > 0) {
      statements.push(
        this.db
          .update(koboDeviceBooks)
          .set({ progressAt: sql`s.value ->> 1` })
          .from(sql`${rows(page.states.map((s) => [s.bookId, s.progressAt]))} AS s`)
          .where(and(eq(koboDeviceBooks.apiKeyId, apiKeyId), sql`${koboDeviceBooks.bookId} = s.value ->> 0`)),
      );
    }
    const shelfRows = [
      ...page.shelves.map((s) => [s.listId, 'sent', s.fingerprint]),
      ...page.shelvesRemoved.map((id) => [id, 'removed', '']),
    ];
    if (shelfRows.length > 0) {
      statements.push(
        this.db
          .insert(koboDeviceShelves)
          .select(
            sql`SELECT ${apiKeyId}, r.value ->> 0, r.value ->> 1, r.value ->> 2, ${generation}
              FROM ${rows(shelfRows)} r WHERE true`,
          )
          .onConflictDoUpdate({
            target: [koboDeviceShelves.apiKeyId, koboDeviceShelves.listId],
            set: {
              state: sql`excluded.state`,
              fingerprint: sql`excluded.fingerprint`,
              generation: sql`excluded.generation`,
            },
          }),
      );
    }
    // Removals the device acknowledged are forgotten: a book or shelf that comes back is new to it.
    const acknowledgedRemovals = <T extends typeof koboDeviceBooks | typeof koboDeviceShelves>(table: T) =>
      and(eq(table.apiKeyId, apiKeyId), eq(table.state, 'removed'), lte(table.generation, page.acknowledged));
    await this.db.batch([
      this.db.delete(koboDeviceBooks).where(acknowledgedRemovals(koboDeviceBooks)),
      this.db.delete(koboDeviceShelves).where(acknowledgedRemovals(koboDeviceShelves)),
      ...statements,
    ]);
  }
}

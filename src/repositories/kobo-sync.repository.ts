/**
 * What a Kobo e-reader has and what it should get (DECISIONS.md §Kobo e-readers). A device is an API key; its
 * rows (kobo_device_books, kobo_device_shelves) say what each sync page sent it and at which generation. A sync
 * page compares them with the books the key's owner may see — through the catalog query layer's Viewer, like
 * every other read — and sends the difference: books new or changed since they were sent, books gone, reading
 * states moved elsewhere, shelves made, changed or emptied. A row written by a page the device never
 * acknowledged (its token names an earlier generation) counts as not sent.
 *
 * Each sync page is one batch (one round trip): the reads of what it sends, then the writes that record it,
 * worked out in SQL from the same statements' terms (`pagePlan`) so that they record exactly what the reads
 * found, each guarded by the caller's credential (credential-guard.ts) so that a page made before the key's check
 * returns records nothing for a key the check refuses (docs/ARCHITECTURE.md, "The credential check beside the
 * request").
 */
import { and, eq, lte, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { bookPages, books, koboDeviceBooks, koboDeviceShelves } from '../db/schema';
import type { CreditedAuthor } from '../db/tables/metadata-values';
import { credentialStillGrants, type GuardedCaller } from './credential-guard';
import type { AlongsideWrite, BookCondition } from './read-progress.repository';
import { fromExcluded } from './upsert';
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

/**
 * A shelf the device must hear of: made (or made again: one it never confirmed, or removed before), changed
 * (renamed, or its books), or deleted (gone, emptied, or no longer chosen; its name when it still exists).
 */
export interface KoboShelfChange extends KoboShelfRow {
  change: 'new' | 'changed' | 'deleted';
}

/**
 * What one sync page reads, in order: at most `limit + 1` of each kind, so the page knows if more follow. Its
 * first `limit` items, in this order, are what the same batch recorded as sent (books, removals, states, shelves).
 */
export interface KoboSyncRead {
  books: KoboBookRow[];
  /**
   * Books the device may have that it may no longer have (gone, hidden, out of its shelves), or removals it never
   * got — of books it may not have again.
   */
  removals: Array<{ bookId: string }>;
  /** Reading states moved elsewhere, of books the device has and that did not change otherwise. */
  states: KoboStateRow[];
  shelves: KoboShelfChange[];
  /** The credential still granted what the caller's principal says: false, nothing was recorded. */
  credentialHolds: boolean;
}

/** Who asks for a sync page: the device, the generation the page will be, and whose credential it tests. */
export interface KoboSyncRequest {
  limit: number;
  generation: number;
  /** The credential the writes test (none: not guarded), at `now`. */
  caller?: GuardedCaller;
  now: string;
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

/**
 * How a statement names the device's values: bound where each is used (`bound`), or — in a sync page's
 * statements, which use them dozens of times while D1 binds at most 100 values a statement — read from the
 * statement's one-row table `kobo` (`koboRow`, `fromKoboRow`), bound once.
 */
interface DeviceTerms {
  viewer: Viewer;
  apiKeyId: SQL;
  userId: SQL;
  acknowledged: SQL;
}

const bound = (device: KoboDevice): DeviceTerms => ({
  viewer: device.viewer,
  apiKeyId: sql`${device.apiKeyId}`,
  userId: sql`${device.viewer.userId}`,
  acknowledged: sql`${device.acknowledged}`,
});

const fromKoboRow = (device: KoboDevice): DeviceTerms => ({
  viewer: device.viewer,
  apiKeyId: sql`(SELECT api_key_id FROM kobo)`,
  userId: sql`(SELECT user_id FROM kobo)`,
  acknowledged: sql`(SELECT acknowledged FROM kobo)`,
});

/** The `kobo` table of a statement whose terms are `fromKoboRow` (a common table expression). */
const koboRow = (device: KoboDevice) => sql`kobo AS (SELECT ${device.apiKeyId} AS api_key_id,
  ${device.viewer.userId} AS user_id, ${device.acknowledged} AS acknowledged)`;

/** The user's shelves preference (JSON), or NULL when the whole library syncs. */
const shelvesPreference = (userId: SQL) => sql`(SELECT nullif(up.value, 'null') FROM user_preferences up
  WHERE up.user_id = ${userId} AND up.key = ${sql.raw(`'${KOBO_SHELVES_PREFERENCE}'`)})`;

/**
 * The book is in the device's scope: the whole library, or the books of the collections and read lists the
 * user chose (the preference is read inside the statement, so it costs no read of its own).
 */
function inShelves(userId: SQL): SQL {
  const chosen = shelvesPreference(userId);
  return sql`(${chosen} IS NULL
    OR books.id IN (SELECT rlb.book_id FROM read_list_books rlb
      WHERE rlb.read_list_id IN (SELECT value FROM json_each(${chosen}, '$.readListIds')))
    OR books.series_id IN (SELECT cs.series_id FROM collection_series cs
      WHERE cs.collection_id IN (SELECT value FROM json_each(${chosen}, '$.collectionIds'))))`;
}

/** A book the device may have: live, read without error, an EPUB or a comic, visible to the viewer, in scope. */
const deliverable = ({ viewer, userId }: DeviceTerms) =>
  sql`${EPUB_READY} AND ${visibleBooks(viewer, { seriesId: sql`books.series_id`, libraryId: sql`books.library_id` })}
    AND ${inShelves(userId)}`;

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

/**
 * The books the device may have with what it was told of them (`d`) and the user's progress (`rp`), `where` they
 * match: the FROM and WHERE of every statement that reads or records books by them.
 */
function deviceBooks(terms: DeviceTerms, where: SQL): SQL {
  return sql`FROM books JOIN series ON series.id = books.series_id JOIN libraries ON libraries.id = books.library_id
    LEFT JOIN kobo_device_books d ON d.api_key_id = ${terms.apiKeyId} AND d.book_id = books.id
    LEFT JOIN read_progress rp ON rp.user_id = ${terms.userId} AND rp.book_id = books.id
    WHERE ${deliverable(terms)} AND ${where}`;
}

/**
 * The statement that reads books with everything the device is sent of them (`kobo`: the statement's `kobo`
 * table, when its terms read it).
 */
function booksQuery(
  db: Database,
  pageTypes: readonly string[],
  terms: DeviceTerms,
  where: SQL,
  limit: number,
  kobo?: SQL,
) {
  return selectFrom<RawBook>(
    db,
    RAW_BOOK_COLUMNS,
    sql`${kobo ? sql`WITH ${kobo} ` : sql``}SELECT ${bookColumns(pageTypes)}, d.state AS "deviceState",
      d.generation AS "deviceGeneration", ${PROGRESS} AS "progress"
    ${deviceBooks(terms, where)}
    ORDER BY books.id LIMIT ${limit}`,
  );
}

/** New or changed since the device got it (or never confirmed getting it): the books a sync page sends first. */
const changedSince = ({ acknowledged }: DeviceTerms) => sql`(d.book_id IS NULL OR d.fingerprint <> ${BOOK_FINGERPRINT}
  OR d.state = 'removed' OR (d.state = 'sent' AND d.generation > ${acknowledged}))`;

/** The book `d` names is one the device may have (its row, as `deliverable` reads it). */
const stillDeliverable = (terms: DeviceTerms) => sql`EXISTS (SELECT 1 FROM books
  JOIN series ON series.id = books.series_id WHERE books.id = d.book_id AND ${deliverable(terms)})`;

/**
 * Books the device must drop, ordered by id: sent but no longer for it, or removed on a page it never confirmed —
 * unless it may have them again (then they are changed books, sent again).
 */
const removalsFrom = (terms: DeviceTerms) => sql`FROM kobo_device_books d WHERE d.api_key_id = ${terms.apiKeyId}
  AND (d.state = 'sent' OR (d.state = 'removed' AND d.generation > ${terms.acknowledged}))
  AND NOT ${stillDeliverable(terms)}`;

/**
 * Reading states moved since they were sent, on books the device confirmed having, may still have, and that did not
 * change otherwise (a changed book carries its state; a book to drop needs none). A state the device wrote itself
 * is recorded as sent to it (progressSent). One CASE, so that SQLite tests the book only for the few rows whose state
 * moved (split into terms, it tested every book the device has, as soon as it read its row).
 */
const statesFrom = (terms: DeviceTerms) => sql`FROM kobo_device_books d JOIN books ON books.id = d.book_id
  JOIN series ON series.id = books.series_id
  LEFT JOIN read_progress rp ON rp.user_id = ${terms.userId} AND rp.book_id = d.book_id
  WHERE d.api_key_id = ${terms.apiKeyId} AND d.state = 'sent' AND d.generation <= ${terms.acknowledged}
    AND CASE WHEN rp.updated_at IS NOT d.progress_at
      THEN ${deliverable(terms)} AND d.fingerprint = ${BOOK_FINGERPRINT} ELSE 0 END`;

/**
 * The shelves the device gets: the lists the user chose, or every read list and collection (smart collections
 * are rules, not shelves) — each with the books the device gets from it (none withheld: `pageTypes`), in the
 * list's order (JSON), and the shelf's version as the device knows it (its name and books: a different one sends
 * the shelf again). What the device was told of each book does not enter it, so the page's record of its shelves,
 * written after that of its books, finds the shelves its reads found.
 */
function currentShelves(terms: DeviceTerms, pageTypes: readonly string[]): SQL {
  const chosen = shelvesPreference(terms.userId);
  const onDevice = sql`NOT ${withheld(pageTypes)}`;
  return sql`SELECT lists.*, lists."name" || char(10) || lists."bookIds" AS "fingerprint" FROM (
      SELECT 'readlist' AS "kind", rl.id AS "id", rl.name AS "name", rl.created_at AS "createdAt",
        rl.updated_at AS "updatedAt",
        (SELECT json_group_array(x.id) FROM (SELECT books.id AS id FROM read_list_books rlb
          JOIN books ON books.id = rlb.book_id JOIN series ON series.id = books.series_id
          WHERE rlb.read_list_id = rl.id AND ${deliverable(terms)} AND ${onDevice}
          ORDER BY rlb.position, books.id) x) AS "bookIds"
      FROM read_lists rl
      WHERE ${chosen} IS NULL OR rl.id IN (SELECT value FROM json_each(${chosen}, '$.readListIds'))
      UNION ALL
      SELECT 'collection' AS "kind", c.id AS "id", c.name AS "name", c.created_at AS "createdAt",
        c.updated_at AS "updatedAt",
        (SELECT json_group_array(x.id) FROM (SELECT books.id AS id FROM collection_series cs
          JOIN books ON books.series_id = cs.series_id JOIN series ON series.id = books.series_id
          WHERE cs.collection_id = c.id AND ${deliverable(terms)} AND ${onDevice}
          ORDER BY cs.position, books.number_sort IS NULL, books.number_sort, books.sort_key, books.id) x) AS "bookIds"
      FROM collections c
      WHERE c.rule IS NULL AND (${chosen} IS NULL OR c.id IN (SELECT value FROM json_each(${chosen}, '$.collectionIds')))
    ) AS lists`;
}

/**
 * The shelves the device must hear of, ordered by id (`KoboShelfChange`; a shelf with no book for the device is
 * not one): one it never confirmed having, or had removed, is new; one whose name or books differ from what it
 * was sent is changed; one it has (or whose removal it never confirmed) that is gone or empty is deleted.
 */
function shelfChanges(terms: DeviceTerms, pageTypes: readonly string[]): SQL {
  const { apiKeyId, acknowledged } = terms;
  return sql`WITH shelf AS (${currentShelves(terms, pageTypes)})
    SELECT s.kind AS "kind", s.id AS "id", s.name AS "name", s."createdAt" AS "createdAt",
      s."updatedAt" AS "updatedAt", s."bookIds" AS "bookIds", s.fingerprint AS "fingerprint",
      CASE WHEN ds.list_id IS NULL OR ds.state = 'removed' OR ds.generation > ${acknowledged} THEN 'new'
        ELSE 'changed' END AS "change"
    FROM shelf s LEFT JOIN kobo_device_shelves ds ON ds.api_key_id = ${apiKeyId} AND ds.list_id = s.id
    WHERE json_array_length(s."bookIds") > 0 AND (ds.list_id IS NULL OR ds.state = 'removed'
      OR ds.generation > ${acknowledged} OR ds.fingerprint <> s.fingerprint)
    UNION ALL
    SELECT coalesce(s.kind, 'readlist'), ds.list_id, coalesce(s.name, ''), NULL, NULL, '[]', '', 'deleted'
    FROM kobo_device_shelves ds LEFT JOIN shelf s ON s.id = ds.list_id
    WHERE ds.api_key_id = ${apiKeyId} AND (s.id IS NULL OR json_array_length(s."bookIds") = 0)
      AND (ds.state = 'sent' OR ds.generation > ${acknowledged})
    ORDER BY 2`;
}

/**
 * The books among the first `limit` items of a sync page, in the order the device gets them (books, removals,
 * states, each kind by id; shelves come after them) — what the page's reads show the service, which sends the same
 * first `limit`. `kind`: 0 books, 1 removals, 2 states.
 */
function pagePlan(terms: DeviceTerms, limit: number): SQL {
  const more = limit + 1;
  const ranked = [
    sql`SELECT 0 AS kind, id FROM (SELECT books.id AS id ${deviceBooks(terms, changedSince(terms))}
      ORDER BY books.id LIMIT ${more})`,
    sql`SELECT 1, id FROM (SELECT d.book_id AS id ${removalsFrom(terms)} ORDER BY d.book_id LIMIT ${more})`,
    sql`SELECT 2, id FROM (SELECT d.book_id AS id ${statesFrom(terms)} ORDER BY d.book_id LIMIT ${more})`,
  ];
  return sql`SELECT kind, id FROM (SELECT kind, id, row_number() OVER (ORDER BY kind, id) AS pos
    FROM (${sql.join(ranked, sql` UNION ALL `)})) WHERE pos <= ${limit}`;
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
    return sql`(${deliverable(bound(device))} AND NOT ${withheld(this.pageTypes)})`;
  }

  /**
   * One sync page, in one batch: what it sends (at most `limit + 1` of each kind) and, in the same transaction,
   * the record of its first `limit` items as generation `generation` — books sent or withheld, removals, states
   * sent, shelves made, changed or deleted — each write guarded by the caller's credential; then the removals the
   * device confirmed are forgotten (a book or shelf that comes back is new to it).
   */
  async syncPage(device: KoboDevice, request: KoboSyncRequest): Promise<KoboSyncRead> {
    const { apiKeyId, acknowledged } = device;
    const { limit, generation } = request;
    const more = limit + 1;
    const terms = fromKoboRow(device);
    const kobo = koboRow(device);
    const holds = request.caller ? credentialStillGrants(request.caller, request.now) : sql`1`;
    type RawState = Omit<KoboStateRow, 'progress'> & { progress: string | null };
    const stateColumns = ['bookId', 'createdAt', 'pageCount', 'fileFormat', 'epubLayout', 'progress'] as const;
    const states = selectFrom<RawState>(
      this.db,
      stateColumns,
      sql`WITH ${kobo} SELECT d.book_id AS "bookId", books.created_at AS "createdAt", books.page_count AS "pageCount",
        books.file_format AS "fileFormat", books.epub_layout AS "epubLayout", ${PROGRESS} AS "progress"
      ${statesFrom(terms)} ORDER BY d.book_id LIMIT ${more}`,
    );
    type RawShelf = Omit<KoboShelfChange, 'bookIds'> & { bookIds: string };
    const shelfColumns = ['change', 'kind', 'id', 'name', 'createdAt', 'updatedAt', 'bookIds'] as const;
    const shelves = selectFrom<RawShelf>(
      this.db,
      shelfColumns,
      sql`WITH ${kobo} SELECT * FROM (${shelfChanges(terms, this.pageTypes)}) ORDER BY "id" LIMIT ${more}`,
    );
    // The writes work the page out again (`pagePlan`), while what the device was told is as the reads saw it: its
    // books, removals and states, each row then of this page's generation (a state on a page the device never got
    // is sent again, as a book is); then its shelves, in what those left of the page (a shelf's books do not depend
    // on the rows just written: currentShelves).
    const booksSent = this.db
      .insert(koboDeviceBooks)
      .select(
        sql`SELECT ${apiKeyId}, w.book_id, w.state, w.fingerprint, w.generation, w.progress_at FROM (
          WITH ${kobo}, plan AS MATERIALIZED (${pagePlan(terms, limit)})
          SELECT books.id AS book_id, CASE WHEN ${withheld(this.pageTypes)} THEN 'withheld' ELSE 'sent' END AS state,
            ${BOOK_FINGERPRINT} AS fingerprint, ${generation} AS generation,
            CASE WHEN ${withheld(this.pageTypes)} THEN NULL ELSE rp.updated_at END AS progress_at
            ${deviceBooks(terms, sql`books.id IN (SELECT id FROM plan WHERE kind = 0)`)}
          UNION ALL
          SELECT d.book_id, 'removed', d.fingerprint, ${generation}, NULL FROM kobo_device_books d
            WHERE d.api_key_id = ${terms.apiKeyId} AND d.book_id IN (SELECT id FROM plan WHERE kind = 1)
          UNION ALL
          SELECT d.book_id, d.state, d.fingerprint, ${generation}, rp.updated_at FROM kobo_device_books d
            LEFT JOIN read_progress rp ON rp.user_id = ${terms.userId} AND rp.book_id = d.book_id
            WHERE d.api_key_id = ${terms.apiKeyId} AND d.book_id IN (SELECT id FROM plan WHERE kind = 2)
        ) AS w WHERE ${holds}`,
      )
      .onConflictDoUpdate({
        target: [koboDeviceBooks.apiKeyId, koboDeviceBooks.bookId],
        set: fromExcluded(koboDeviceBooks, ['state', 'fingerprint', 'generation', 'progressAt']),
      });
    const shelvesSent = this.db
      .insert(koboDeviceShelves)
      .select(
        sql`SELECT ${apiKeyId}, c.id, CASE c."change" WHEN 'deleted' THEN 'removed' ELSE 'sent' END, c.fingerprint,
          ${generation} FROM (WITH ${kobo}
            SELECT changes.*, row_number() OVER (ORDER BY changes."id") AS place,
              ${limit} - (SELECT count(*) FROM kobo_device_books page WHERE page.api_key_id = ${terms.apiKeyId}
                AND page.generation = ${generation}) AS room
            FROM (${shelfChanges(terms, this.pageTypes)}) AS changes) AS c
        WHERE c.place <= c.room AND ${holds}`,
      )
      .onConflictDoUpdate({
        target: [koboDeviceShelves.apiKeyId, koboDeviceShelves.listId],
        set: fromExcluded(koboDeviceShelves, ['state', 'fingerprint', 'generation']),
      });
    const acknowledgedRemovals = <T extends typeof koboDeviceBooks | typeof koboDeviceShelves>(table: T) =>
      and(eq(table.apiKeyId, apiKeyId), eq(table.state, 'removed'), lte(table.generation, acknowledged), holds);
    const [bookRows, removalRows, stateRows, shelfRows, guard] = await this.db.batch([
      booksQuery(this.db, this.pageTypes, terms, changedSince(terms), more, kobo),
      selectFrom<{ bookId: string }>(
        this.db,
        ['bookId'],
        sql`WITH ${kobo} SELECT d.book_id AS "bookId" ${removalsFrom(terms)} ORDER BY d.book_id LIMIT ${more}`,
      ),
      states,
      shelves,
      selectFrom<{ holds: number }>(this.db, ['holds'], sql`SELECT ${holds} AS "holds"`),
      booksSent,
      shelvesSent,
      this.db.delete(koboDeviceBooks).where(acknowledgedRemovals(koboDeviceBooks)),
      this.db.delete(koboDeviceShelves).where(acknowledgedRemovals(koboDeviceShelves)),
    ]);
    return {
      books: rowsOf<RawBook>(bookRows).map(bookOf),
      removals: rowsOf<{ bookId: string }>(removalRows),
      states: rowsOf<RawState>(stateRows).map((row) => ({ ...row, progress: progressOf(row.progress) })),
      shelves: rowsOf<RawShelf>(shelfRows).map((row) => ({ ...row, bookIds: JSON.parse(row.bookIds) as string[] })),
      credentialHolds: Boolean(rowsOf<{ holds: number }>(guard)[0]?.holds),
    };
  }

  /** One book as the device gets it (metadata, reading state), if the viewer may see it and it can go to a Kobo. */
  async book(device: KoboDevice, bookId: string): Promise<KoboBookRow | undefined> {
    const [row] = rowsOf<RawBook>(
      await booksQuery(this.db, this.pageTypes, bound(device), sql`books.id = ${bookId}`, 1),
    );
    return row ? bookOf(row) : undefined;
  }

  /**
   * What a download needs, in one batch: the book as the sync sent it, its file as scanned, and a comic's page
   * index (what writing it as an EPUB reads). Undefined when the device cannot have the book.
   */
  async downloadSource(device: KoboDevice, bookId: string): Promise<KoboDownloadSource | undefined> {
    const [rows, files, pages] = await this.db.batch([
      booksQuery(this.db, this.pageTypes, bound(device), sql`books.id = ${bookId}`, 1),
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
}

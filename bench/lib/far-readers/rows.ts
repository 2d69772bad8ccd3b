/**
 * The rows of `npm run bench -- far-readers` (issue 30): one entry per request a far reader makes. Every route
 * added to Longbox gets a row here in the same commit (bench/README.md, "Far readers").
 *
 * A row says how to make its request (`call`, given the seeded library and `n`, this row's call number on the
 * server: rows that need something new each time — a book never read, a width never rendered, a user never
 * checked — take the n-th), what depth it must reach (`target`; `replicaTarget` with read replicas on a warm
 * colo) and what that depth means. `note`: the depth measured at 140f3ba in the far-readers note (a scratch
 * shim), for comparison only. The bench fails when a row measures above its target.
 */
import { koreaderStatisticsFile } from '../../../test/support/koreader-statistics-db.mjs';
import { pagesRead } from '../../../test/support/koreader-statistics-spec.mjs';
import { peerUser } from '../../../test/support/peers/peer-user';
import { createHash } from 'node:crypto';
import { adminApi, type Library, PEER_SOURCE, pollsDone } from './library';

export interface Call {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** JSON body. */
  json?: unknown;
  /** A raw body and its type (a KOReader statistics database). */
  raw?: { body: Uint8Array; type: string };
  /** A raw body instead (its `Content-Type` in `headers`): an image. */
  body?: Uint8Array;
  /** Statuses that mean the request did what the row measures (default: 200). */
  expect?: number[];
  /** Time until the response headers, then stop reading (an event stream). */
  untilHeaders?: boolean;
}

export interface Row {
  /** Short handle for `--rows=`. */
  id: string;
  /** The table's `request` column. */
  request: string;
  /** What the depth is made of today, and what the target asks. */
  means: string;
  target: number;
  replicaTarget: number;
  /** Depth in the far-readers note (140f3ba, scratch shim). */
  note?: number;
  /** Measured with the edge page cache on (LONGBOX_PAGES__EDGE_CACHE=true) also without read replicas. */
  edgeCache?: boolean;
  /** The route came after the "before" commit (far-readers.bench.ts BEFORE_COMMIT): "—" there, not measured. */
  newRoute?: boolean;
  /**
   * Needs something new on every call (the library is sized from it): a book never read, a user never checked, a
   * width never rendered; a book or series whose file it deletes; a release it deletes.
   */
  fresh?: Fresh;
  /** Needs the rows' series tracked, with releases in its ledger (library.ts `seedTracking`). */
  tracking?: true;
  /**
   * Untimed work before each call, for what cannot be made once for all (an alias to delete): its requests are
   * not measured, and what it returns is given to `call`.
   */
  setup?: (library: Library, n: number) => Promise<Made>;
  /**
   * Untimed work after each call: undoes what would change another row's request (a selected cover), or waits
   * for work the call started elsewhere (a poll in the consumers) so that it does not run beside the next row.
   */
  cleanup?: (library: Library, n: number, made: Made) => Promise<void>;
  /** The request; absent for the home screen, which Chromium measures (home-screen.ts). */
  call?: (library: Library, n: number, made: Made) => Call;
}

export type Fresh = 'book' | 'user' | 'width' | 'victim-book' | 'victim-series' | 'release';
/** What a row's `setup` made for one call (ids by name). */
export type Made = Record<string, string>;

const key = (l: Library) => ({ 'X-API-Key': l.admin.key });
const bearer = (l: Library) => ({ Authorization: `Bearer ${l.admin.token}` });
const basic = (user: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
const page = (l: Library, bookId = l.book.id, query = '') => `/api/v1/books/${bookId}/pages/1${query}`;
const KOREADER = { Accept: 'application/vnd.koreader.v1+json' };
/** When a call that makes the rows' series poll starts (`pollsDone` waits for polls made since). */
const pollStart = async (): Promise<Made> => ({ since: new Date().toISOString() });
/** The book the cover import gives a cover: a fresh one (its pages are read, never its cover). */
const coverBook = (l: Library) => l.freshBooks[0]!.id;

/**
 * A row of a write that waits for the credential check (docs/DECISIONS.md §Far readers, "Writes wait for the
 * check"): a route newer than the "before" commit, sent with the admin's key. Its depth is the check, then one
 * wave — target 2; with read replicas the check is near and the wave goes to the primary — 1. `call` gives the
 * rest of the request (its own headers go beside the key).
 */
function writeRow(row: Omit<Row, 'newRoute' | 'target' | 'replicaTarget'> & { call: NonNullable<Row['call']> }): Row {
  const { call } = row;
  return {
    ...row,
    newRoute: true,
    target: 2,
    replicaTarget: 1,
    call: (l, n, made) => {
      const request = call(l, n, made);
      return { ...request, headers: { ...key(l), ...request.headers } };
    },
  };
}

/** A KOReader statistics database of 20 sittings of the book with `hash` (written once per hash by node:sqlite). */
const koreaderFiles = new Map<string, Uint8Array>();
function koreaderStatisticsOf(hash: string): Uint8Array {
  let file = koreaderFiles.get(hash);
  if (!file) {
    const start = Math.floor(Date.now() / 1000) - 30 * 86_400;
    const visits = Array.from({ length: 20 }, (_, day) => pagesRead(1 + day * 10, 10, start + day * 86_400, 45)).flat();
    file = koreaderStatisticsFile([{ title: 'Far bench', md5: hash, visits }]);
    koreaderFiles.set(hash, file);
  }
  return file;
}

export const ROWS: Row[] = [
  // Pages ---------------------------------------------------------------------------------------------------
  {
    id: 'page-key',
    request: 'original page from R2, `X-API-Key`',
    means: 'credential check ∥ ranged `LIBRARY.get` (the check runs beside the request once the isolate knows the key)',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: page(l), headers: key(l) }),
  },
  {
    id: 'page-bearer',
    request: 'original page, Bearer session token',
    means: 'session check ∥ `LIBRARY.get`',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: page(l), headers: bearer(l) }),
  },
  {
    id: 'page-cookie',
    request: 'original page, session cookie (web reader)',
    means: 'session check ∥ `LIBRARY.get`',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: page(l), headers: { Cookie: l.admin.cookie } }),
  },
  {
    id: 'page-basic-key',
    request: 'original page, Basic `api:<key>`',
    means: 'key check ∥ `LIBRARY.get`',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: page(l), headers: basic('api', l.admin.key) }),
  },
  {
    id: 'page-restricted',
    request: 'original page, reader with an age restriction',
    means: 'key check ∥ visibility of the book ∥ `LIBRARY.get` (the bytes wait for both)',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({ path: page(l), headers: { 'X-API-Key': l.kid.key } }),
  },
  {
    id: 'page-edge-cached',
    request: 'original page already in the edge cache (edge cache on)',
    means: 'key check ∥ `caches.default` hit (near)',
    target: 1,
    replicaTarget: 0,
    note: 1,
    edgeCache: true,
    call: (l) => ({ path: `/api/v1/books/${l.book.id}/pages/2`, headers: key(l) }),
  },
  {
    id: 'page-first',
    request: 'first page of a book (page table not cached)',
    means:
      'key check ∥ book + pages → `LIBRARY.get`: the range needs the page’s place, which only D1 knows (kept a minute in the isolate and the colo); with replicas the bytes are not in the colo yet: one R2 read',
    // Issue 30 asked for 1; two dependent far reads cannot be one (DECISIONS.md §After the credential check,
    // "The first page of a book nothing has kept"): measured 2 (3 before issue 30), 1 with replicas.
    target: 2,
    replicaTarget: 1,
    note: 3,
    fresh: 'book',
    call: (l, n) => ({ path: page(l, l.freshBooks[n]!.id), headers: key(l) }),
  },
  {
    id: 'rendition-made',
    request: '`?width=` page, rendition already made',
    means: 'key check ∥ `CACHE.get` (the colo’s cache first: a hit there makes no R2 read)',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: page(l, l.book.id, `?width=${Math.round(l.pageWidth / 2)}`), headers: key(l) }),
  },
  {
    id: 'rendition-first',
    request: '`?width=` page, first time',
    means: 'key check ∥ `CACHE.get` miss → `LIBRARY.get` → render (near); `CACHE.put` after the answer',
    target: 2,
    replicaTarget: 2,
    note: 4,
    fresh: 'width',
    call: (l, n) => ({ path: page(l, l.book.id, `?width=${renditionWidth(l, n)}`), headers: key(l) }),
  },
  {
    id: 'page-basic-cold',
    request: 'original page, Basic user:password not yet checked in this isolate',
    means: 'throttle reserve + user (one batch) → argon2 → `LIBRARY.get`; throttle reset and activity after the answer',
    target: 2,
    replicaTarget: 2,
    note: 5,
    fresh: 'user',
    call: (l, n) => ({ path: page(l), headers: basic(l.coldUsers[n]!.username, l.coldUsers[n]!.password) }),
  },
  {
    id: 'file-range',
    request: '`GET /books/{id}/file`, `Range: bytes=0-65535` (EPUB reader)',
    means:
      'key check ∥ ranged `LIBRARY.get` (storage columns kept with the page table); the range seen before: the colo’s cache',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({
      path: `/api/v1/books/${l.book.id}/file`,
      headers: { ...key(l), Range: 'bytes=0-65535' },
      expect: [206],
    }),
  },
  // Covers --------------------------------------------------------------------------------------------------
  {
    id: 'thumbnail-book',
    request: 'book thumbnail',
    means: 'key check ∥ cover row ∥ `CACHE.get` of the generated thumbnail’s key (the colo’s cache first)',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({ path: `/api/v1/books/${l.book.id}/thumbnail`, headers: key(l) }),
  },
  {
    id: 'thumbnail-series',
    request: 'series thumbnail',
    means: 'key check ∥ series row ∥ `CACHE.get` of the key the isolate last saw (first time: row → `CACHE.get`)',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({ path: `/api/v1/series/${l.series.id}/thumbnail`, headers: key(l) }),
  },
  // Catalog -------------------------------------------------------------------------------------------------
  {
    id: 'series-list',
    request: '`GET /series`',
    means: 'key check ∥ count ∥ page',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: '/api/v1/series', headers: key(l) }),
  },
  {
    id: 'releases',
    newRoute: true,
    request: '`GET /releases` (the release inbox, issue 32)',
    means: 'key check → one batch (page ∥ count)',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/api/v1/releases', headers: key(l) }),
  },
  {
    id: 'series-tracking',
    newRoute: true,
    request: '`GET /series/{id}/tracking` (issue 32)',
    means: 'key check → one batch (the series with its tracking ∥ aliases ∥ ids ∥ polls)',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: `/api/v1/series/${l.series.id}/tracking`, headers: key(l) }),
  },
  {
    id: 'series-releases',
    newRoute: true,
    request: "`GET /series/{id}/releases` (a series' ledger on its page, issue 32)",
    means: 'key check → one batch (the series ∥ page ∥ count)',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: `/api/v1/series/${l.series.id}/releases`, headers: key(l) }),
  },
  {
    id: 'series-aliases',
    newRoute: true,
    request: "`GET /series/{id}/aliases` (a series' other names, issue 32)",
    means: 'key check ∥ one batch (the series ∥ its aliases ∥ ids ∥ polls)',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: `/api/v1/series/${l.series.id}/aliases`, headers: key(l) }),
  },
  {
    id: 'series-external-ids',
    newRoute: true,
    request: "`GET /series/{id}/external-ids` (a series' ids at the providers, issue 32)",
    means: 'key check ∥ one batch (as the aliases)',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: `/api/v1/series/${l.series.id}/external-ids`, headers: key(l) }),
  },
  {
    id: 'release-sources',
    newRoute: true,
    request: '`GET /release-sources` (admin, issue 32)',
    means: 'admin key check ∥ one statement (each source with its count of tracked series)',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/api/v1/release-sources', headers: key(l) }),
  },
  {
    id: 'book-detail',
    request: '`GET /books/{id}`',
    means: 'key check ∥ one statement',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: `/api/v1/books/${l.book.id}`, headers: key(l) }),
  },
  {
    id: 'on-deck',
    request: '`GET /books/on-deck`',
    means: 'key check ∥ one statement',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: '/api/v1/books/on-deck', headers: key(l) }),
  },
  {
    id: 'search',
    request: '`POST /series/search`',
    means: 'key check ∥ one full-text statement',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ method: 'POST', path: '/api/v1/series/search', headers: key(l), json: { query: 'far' } }),
  },
  {
    id: 'series-filter',
    request: '`POST /series/list` (`publisher is …`)',
    means: 'key check ∥ count ∥ page',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({
      method: 'POST',
      path: '/api/v1/series/list',
      headers: key(l),
      json: { condition: { publisher: { operator: 'is', value: 'Far Comics' } } },
    }),
  },
  {
    id: 'books-filter',
    request: '`POST /books/list` (`seriesId is …`)',
    means: 'key check ∥ count ∥ page',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({
      method: 'POST',
      path: '/api/v1/books/list',
      headers: key(l),
      json: { condition: { seriesId: { operator: 'is', value: l.series.id } } },
    }),
  },
  // The web app home screen's JSON calls (Bearer, as the web app sends them), each also a catalog list.
  {
    id: 'currently-reading',
    request: '`GET /progress/currently-reading` (home, Bearer)',
    means: 'session check ∥ count ∥ page',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: '/api/v1/progress/currently-reading?pageSize=20', headers: bearer(l) }),
  },
  {
    id: 'recently-added',
    request: '`GET /books/recently-added` (home, Bearer)',
    means: 'session check ∥ count ∥ page',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: '/api/v1/books/recently-added?pageSize=20', headers: bearer(l) }),
  },
  {
    id: 'recently-updated',
    request: '`GET /series/recently-updated` (home, Bearer)',
    means: 'session check ∥ count ∥ page',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: '/api/v1/series/recently-updated?pageSize=20', headers: bearer(l) }),
  },
  {
    id: 'want-to-read',
    request: "`GET /want-to-read`, a list with an entry (the restricted reader's key)",
    means: 'key check ∥ entries ∥ count ∥ their series and books (named by a subquery of the same page)',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/api/v1/want-to-read?pageSize=20', headers: { 'X-API-Key': l.kid.key } }),
  },
  {
    id: 'pinned-collections',
    request: '`GET /collections?pinned=true` (home, Bearer)',
    means: 'session check ∥ count ∥ page',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: '/api/v1/collections?pinned=true&pageSize=20', headers: bearer(l) }),
  },
  // Progress and sync ---------------------------------------------------------------------------------------
  {
    id: 'progress-get',
    request: '`GET /books/{id}/progress`',
    means: 'key check ∥ the book with the progress row in it (one statement)',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({ path: `/api/v1/books/${l.book.id}/progress`, headers: key(l) }),
  },
  {
    id: 'progress-put',
    request: '`PUT /books/{id}/progress`',
    means:
      'key check ∥ one batch: the book read, the position checked and written, guarded by the credential; a write: the primary, with replicas too',
    target: 1,
    replicaTarget: 1,
    note: 3,
    call: (l) => ({
      method: 'PUT',
      path: `/api/v1/books/${l.book.id}/progress`,
      headers: key(l),
      json: { current_page: 2, is_completed: false },
      expect: [200, 204],
    }),
  },
  {
    id: 'koreader-get',
    request: 'KOReader `GET /koreader/syncs/progress/{document}`',
    means: 'key check ∥ the book by reader hash with its progress row (one statement)',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({
      path: `/koreader/syncs/progress/${l.book.readerHash}`,
      headers: { ...KOREADER, 'x-auth-user': l.admin.key, 'x-auth-key': 'unused' },
    }),
  },
  {
    id: 'koreader-put',
    request: 'KOReader `PUT /koreader/syncs/progress`',
    means: 'key check ∥ one guarded batch finding the book by reader hash and writing',
    target: 1,
    replicaTarget: 1,
    note: 3,
    call: (l) => ({
      method: 'PUT',
      path: '/koreader/syncs/progress',
      headers: { ...KOREADER, 'x-auth-user': l.admin.key, 'x-auth-key': 'unused' },
      json: { document: l.book.readerHash, progress: '2', percentage: 0.25, device: 'far-bench', device_id: 'far' },
    }),
  },
  // Reading statistics (issue 35) --------------------------------------------------------------------------
  // Progress writes keep their rows above: the session fold is one more statement in their own batch.
  {
    id: 'reading-stats',
    newRoute: true,
    request: '`GET /reading-stats` (a year, by week, Europe/Paris)',
    means: 'key check → one statement: the window’s sessions once, every breakdown a GROUP BY over them',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/api/v1/reading-stats?granularity=week&tz=Europe/Paris', headers: key(l) }),
  },
  {
    id: 'reading-stats-coverage',
    newRoute: true,
    request: '`GET /reading-stats/coverage`',
    means: 'key check → one statement',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/api/v1/reading-stats/coverage', headers: key(l) }),
  },
  {
    id: 'reading-sessions-post',
    newRoute: true,
    request: '`POST /reading-sessions` (one measured session, a new id each call)',
    means: 'key check → one batch: unknown books, receipts, sessions, progress read back',
    target: 2,
    replicaTarget: 1,
    call: (l, n) => ({
      method: 'POST',
      path: '/api/v1/reading-sessions',
      headers: key(l),
      json: {
        sessions: [
          {
            id: `far-${n}-${Date.now()}`,
            bookId: l.book.id,
            deviceId: 'far-bench',
            activeDurationMs: 60_000,
            pagesRead: 2,
            clientStartedAt: new Date(Date.now() - 120_000).toISOString(),
            clientEndedAt: new Date(Date.now() - 30_000).toISOString(),
          },
        ],
      },
    }),
  },
  {
    id: 'reading-sessions-koreader',
    newRoute: true,
    request: '`POST /reading-sessions/koreader` (a KOReader statistics database, 20 sittings of the bench’s book)',
    means:
      'key check → one batch: unknown and known sittings, receipts, repeats, sessions (the file read in the isolate)',
    target: 2,
    replicaTarget: 1,
    call: (l) => ({
      method: 'POST',
      path: '/api/v1/reading-sessions/koreader',
      headers: key(l),
      raw: { body: koreaderStatisticsOf(l.book.readerHash), type: 'application/vnd.sqlite3' },
    }),
  },
  {
    id: 'reading-sessions-export',
    newRoute: true,
    request: '`GET /reading-sessions/export` (JSON)',
    means: 'key check → one statement',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/api/v1/reading-sessions/export', headers: key(l) }),
  },
  {
    id: 'reading-device-rename',
    newRoute: true,
    request: '`PUT /reading-devices/{deviceId}` (the bench’s measuring device)',
    means: 'key check → one statement (the name, written only if the user has the device)',
    target: 2,
    replicaTarget: 1,
    call: (l) => ({
      method: 'PUT',
      path: '/api/v1/reading-devices/client:far-bench',
      headers: key(l),
      json: { name: 'Far bench' },
      expect: [204, 404],
    }),
  },
  {
    id: 'reading-sessions-delete',
    newRoute: true,
    request: '`DELETE /reading-sessions`',
    means: 'key check → one batch',
    target: 2,
    replicaTarget: 1,
    call: (l) => ({ method: 'DELETE', path: '/api/v1/reading-sessions', headers: key(l), expect: [204] }),
  },
  {
    id: 'admin-reading-stats',
    newRoute: true,
    request: '`GET /admin/reading-stats` (a year)',
    means: 'admin key check → one statement',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/api/v1/admin/reading-stats', headers: key(l) }),
  },
  // Reader apps ---------------------------------------------------------------------------------------------
  {
    id: 'opds1-feed',
    request: 'OPDS 1.2 acquisition feed `/opds/v1.2/series/{id}` (Basic `api:<key>`)',
    means: 'key check ∥ series ∥ count ∥ page of books with their extras (one statement)',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({ path: `/opds/v1.2/series/${l.series.id}`, headers: basic('api', l.admin.key) }),
  },
  {
    id: 'opds2-feed',
    request: 'OPDS 2.0 acquisition feed `/opds/v2.0/series/{id}`',
    means: 'as the OPDS 1.2 feed',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({ path: `/opds/v2.0/series/${l.series.id}`, headers: basic('api', l.admin.key) }),
  },
  {
    id: 'opds2-manifest',
    request: 'OPDS 2 manifest `/opds/v2.0/books/{id}/manifest`',
    means: 'key check ∥ book with its extras ∥ page list',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({ path: `/opds/v2.0/books/${l.book.id}/manifest`, headers: basic('api', l.admin.key) }),
  },
  {
    id: 'opds-pse',
    request: 'OPDS-PSE page `/opds/v1.2/books/{id}/pages/1`',
    means:
      'key check ∥ `LIBRARY.get`; preference read and progress write after the page, held until the check succeeds',
    target: 1,
    replicaTarget: 0,
    note: 4,
    call: (l) => ({ path: `/opds/v1.2/books/${l.book.id}/pages/1`, headers: basic('api', l.admin.key) }),
  },
  {
    id: 'opds1-search',
    request: 'OPDS 1.2 search `/opds/v1.2/search?query=` (one entry per kind of match, with its count)',
    means: 'key check ∥ the series count ∥ the books count',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/opds/v1.2/search?query=far', headers: basic('api', l.admin.key) }),
  },
  {
    id: 'opds1-search-series',
    newRoute: true,
    request: 'OPDS 1.2 series matching a search `/opds/v1.2/search/series?query=`',
    means: 'key check ∥ a page of matching series ∥ their count',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/opds/v1.2/search/series?query=far', headers: basic('api', l.admin.key) }),
  },
  {
    id: 'opds1-search-books',
    newRoute: true,
    request: 'OPDS 1.2 books matching a search `/opds/v1.2/search/books?query=`',
    means: 'key check ∥ a page of matching books with their extras ∥ their count',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/opds/v1.2/search/books?query=far', headers: basic('api', l.admin.key) }),
  },
  {
    id: 'opds2-placeholder',
    newRoute: true,
    request: 'OPDS 2.0 cover of a publication without one `/opds/v2.0/placeholders/{format}`',
    means: 'key check; the PNG is generated in the isolate',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: '/opds/v2.0/placeholders/cbz', headers: basic('api', l.admin.key) }),
  },
  {
    id: 'import-match',
    newRoute: true,
    request: "`POST /admin/import/books/match` (`npm run migrate` matching a peer's books; reads only)",
    means: "admin key check ∥ the candidates' books by path ∥ KOReader hash ∥ size and name",
    target: 1,
    replicaTarget: 0,
    call: (l) => ({
      method: 'POST',
      path: '/api/v1/admin/import/books/match',
      headers: key(l),
      json: {
        books: [
          { ref: '1', libraryId: null, path: null, readerHash: l.book.readerHash, fileSize: null, fileName: null },
        ],
      },
    }),
  },
  {
    id: 'komga-password',
    request: 'Komga `GET /komga/api/v1/series`, Basic user:password (checked before in the isolate)',
    means:
      'cached Basic check ∥ session lookup for the cookie ∥ count ∥ page with its Komga rows (a new session waits for the check)',
    target: 1,
    replicaTarget: 0,
    note: 4,
    call: (l) => ({ path: '/komga/api/v1/series', headers: basic(l.admin.username, l.admin.password) }),
  },
  {
    id: 'komga-key',
    request: 'Komga `GET /komga/api/v1/series`, `X-API-Key`',
    means: 'key check ∥ count ∥ page with its Komga rows',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({ path: '/komga/api/v1/series', headers: key(l) }),
  },
  {
    id: 'komga-cookie',
    request: 'Komga `GET /komga/api/v1/series`, `KOMGA-SESSION` cookie',
    means: 'session check ∥ count ∥ page with its Komga rows',
    target: 1,
    replicaTarget: 0,
    note: 3,
    call: (l) => ({ path: '/komga/api/v1/series', headers: { Cookie: l.komgaCookie } }),
  },
  {
    id: 'kobo-initialization',
    newRoute: true,
    request: 'Kobo `GET /kobo/{key}/v1/initialization` (the resources document)',
    means: 'key check, nothing else: the resources and Longbox’s image templates are made in the isolate',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: `/kobo/${l.admin.key}/v1/initialization` }),
  },
  {
    id: 'kobo-sync',
    newRoute: true,
    request: 'Kobo `GET /kobo/{key}/v1/library/sync` (a full sync: no token)',
    means:
      'key check ∥ one batch: the page’s reads, then its record (what it sent, worked out again in SQL in the same transaction, each write guarded by the key: the device’s next page reads it); a write: the primary, with replicas too',
    target: 1,
    replicaTarget: 1,
    call: (l) => ({ path: `/kobo/${l.admin.key}/v1/library/sync?Filter=ALL` }),
  },
  {
    id: 'kobo-metadata',
    newRoute: true,
    request: 'Kobo `GET /kobo/{key}/v1/library/{id}/metadata`',
    means: 'key check ∥ the book as the device gets it (one statement)',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: `/kobo/${l.admin.key}/v1/library/${l.book.id}/metadata` }),
  },
  {
    id: 'kobo-state-get',
    newRoute: true,
    request: 'Kobo `GET /kobo/{key}/v1/library/{id}/state`',
    means: 'key check ∥ the book with its progress (one statement)',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: `/kobo/${l.admin.key}/v1/library/${l.book.id}/state` }),
  },
  {
    id: 'kobo-download',
    newRoute: true,
    request: 'Kobo `GET /kobo/{key}/v1/books/{id}/file/epub` (a CBZ as a fixed-layout EPUB), `Range: bytes=0-65535`',
    means:
      'key check ∥ the book, its file and pages (one batch); the EPUB’s headers are written from them, the archive’s ranged `LIBRARY.get` streams after the answer starts',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({
      path: `/kobo/${l.admin.key}/v1/books/${l.book.id}/file/epub`,
      headers: { Range: 'bytes=0-65535' },
      expect: [206],
    }),
  },
  {
    id: 'kobo-cover',
    newRoute: true,
    request: 'Kobo `GET /kobo/{key}/v1/books/{id}/thumbnail/{w}/{h}/false/image.jpg` (a size made before)',
    means:
      'key check ∥ the cover row ∥ the generated thumbnail ∥ `CACHE.get` of the sized cover under the key this isolate last made (its name holds the cover’s version); with replicas, the sized cover from the colo’s cache (its entry records the cover’s version)',
    target: 1,
    replicaTarget: 0,
    call: (l) => ({ path: `/kobo/${l.admin.key}/v1/books/${l.book.id}/thumbnail/120/160/false/image.jpg` }),
  },
  {
    id: 'kobo-state-put',
    newRoute: true,
    request: 'Kobo `PUT /kobo/{key}/v1/library/{id}/state`',
    means:
      'key check ∥ one guarded batch: the book read in its own statements, the position worked out there and written (sitting, progress, series counts, reading time, what the device holds); a write: the primary, with replicas too',
    target: 1,
    replicaTarget: 1,
    call: (l) => ({
      method: 'PUT',
      path: `/kobo/${l.admin.key}/v1/library/${l.book.id}/state`,
      json: {
        ReadingStates: [
          {
            StatusInfo: { Status: 'Reading' },
            CurrentBookmark: { ProgressPercent: 40, Location: { Source: 'OEBPS/page-0002.xhtml', Type: 'KoboSpan' } },
            Statistics: { SpentReadingMinutes: 5 },
          },
        ],
      },
    }),
  },
  // Writes that wait for the credential check ----------------------------------------------------------------
  // Rare writes whose statements do not test the credential themselves (repositories/credential-guard.ts: only
  // progress writes do) are never run for a credential not yet verified: the check, then one wave (`writeRow`).
  writeRow({
    id: 'delete-book-file',
    request: "`DELETE /books/{id}/file?confirm=true` (a book's file removed from storage; a new book each call)",
    means:
      'admin key check ∥ the book (read beside it: `checked-writes`) → the object deleted ∥ the book trashed and its series refreshed (one batch); its cached images after the answer',
    fresh: 'victim-book',
    call: (l, n) => ({
      method: 'DELETE',
      path: `/api/v1/books/${l.victims.books[n]}/file?confirm=true`,
      expect: [204],
    }),
  }),
  writeRow({
    id: 'delete-series-file',
    request: "`DELETE /series/{id}/file?confirm=true` (a series' files removed; a new series each call)",
    means: 'admin key check ∥ its books → the objects deleted ∥ the books trashed and the series refreshed (one batch)',
    fresh: 'victim-series',
    call: (l, n) => ({
      method: 'DELETE',
      path: `/api/v1/series/${l.victims.series[n]}/file?confirm=true`,
      expect: [204],
    }),
  }),
  writeRow({
    id: 'alias-add',
    request: '`POST /series/{id}/aliases` (a new alias each call)',
    means: 'key check → one batch: added if the series is one the caller sees, and read back',
    call: (l, n) => ({
      method: 'POST',
      path: `/api/v1/series/${l.series.id}/aliases`,
      json: { alias: `Far alias ${n}` },
      expect: [201],
    }),
  }),
  writeRow({
    id: 'alias-delete',
    request: '`DELETE /series/{id}/aliases/{aliasId}` (an alias added before each call, not timed)',
    means: 'key check → one batch: removed if the series is one the caller sees',
    setup: async (l, n) => {
      const made = await adminApi(l).call('POST', `/series/${l.series.id}/aliases`, { alias: `Far gone ${n}` });
      return { aliasId: made.id };
    },
    call: (l, _n, made) => ({
      method: 'DELETE',
      path: `/api/v1/series/${l.series.id}/aliases/${made.aliasId}`,
      expect: [204],
    }),
  }),
  writeRow({
    id: 'external-id-set',
    request: "`POST /series/{id}/external-ids` (the series' AniList id)",
    means:
      "key check → one batch: the id replaced and the provider's poll made due, if the series is one the caller sees",
    call: (l) => ({
      method: 'POST',
      path: `/api/v1/series/${l.series.id}/external-ids`,
      json: { source: 'anilist', externalId: '424242' },
    }),
  }),
  writeRow({
    id: 'external-id-delete',
    request: '`DELETE /series/{id}/external-ids/{externalIdId}` (an id set before each call, not timed)',
    means: 'key check → one batch: removed if the series is one the caller sees',
    setup: async (l, n) => {
      const made = await adminApi(l).call('POST', `/series/${l.series.id}/external-ids`, {
        source: 'anilist',
        externalId: String(500_000 + n),
      });
      return { externalIdId: made.id };
    },
    call: (l, _n, made) => ({
      method: 'DELETE',
      path: `/api/v1/series/${l.series.id}/external-ids/${made.externalIdId}`,
      expect: [204],
    }),
  }),
  writeRow({
    id: 'tracking-update',
    request: '`PATCH /series/{id}/tracking` (`trackChapters`)',
    means:
      'key check ∥ the series with what seeding needs (`checked-writes`) → one batch: the tracking written and read back',
    call: (l) => ({ method: 'PATCH', path: `/api/v1/series/${l.series.id}/tracking`, json: { trackChapters: true } }),
  }),
  writeRow({
    id: 'tracking-poll-now',
    request: '`POST /series/{id}/tracking/poll-now` (a tracked series)',
    means: "key check → one batch: the series' polls claimed if it is tracked and seen; queued after the answer",
    tracking: true,
    setup: pollStart,
    call: (l) => ({ method: 'POST', path: `/api/v1/series/${l.series.id}/tracking/poll-now`, expect: [202] }),
    cleanup: (l, _n, made) => pollsDone(l, made.since!),
  }),
  writeRow({
    id: 'release-update',
    request: '`PATCH /releases/{id}` (`state: dismissed`)',
    means: 'key check → one batch: the state set if the release is of a series the caller sees, and read back',
    tracking: true,
    call: (l) => ({
      method: 'PATCH',
      path: `/api/v1/releases/${l.tracking.releases[0]}`,
      json: { state: 'dismissed' },
    }),
  }),
  writeRow({
    id: 'release-dismiss',
    request: '`POST /releases/{id}/dismiss`',
    means: 'as `PATCH /releases/{id}`',
    tracking: true,
    call: (l) => ({ method: 'POST', path: `/api/v1/releases/${l.tracking.releases[1]}/dismiss` }),
  }),
  writeRow({
    id: 'release-acquire',
    request: '`POST /releases/{id}/mark-acquired`',
    means: 'as `PATCH /releases/{id}`',
    tracking: true,
    call: (l) => ({ method: 'POST', path: `/api/v1/releases/${l.tracking.releases[2]}/mark-acquired` }),
  }),
  writeRow({
    id: 'releases-bulk',
    request: '`POST /releases/bulk` (three releases reset to announced)',
    means: 'key check → one batch',
    tracking: true,
    call: (l) => ({
      method: 'POST',
      path: '/api/v1/releases/bulk',
      json: { ids: l.tracking.releases.slice(0, 3), action: 'reset' },
    }),
  }),
  writeRow({
    id: 'release-delete',
    request: '`DELETE /releases/{id}` (a release of its own each call)',
    means: "key check → one batch: the series' marks lowered below it and the release deleted",
    tracking: true,
    fresh: 'release',
    call: (l, n) => ({ method: 'DELETE', path: `/api/v1/releases/${l.tracking.releases[3 + n]}` }),
  }),
  writeRow({
    id: 'release-source-update',
    request: '`PATCH /release-sources/{id}` (AniList, `enabled: true`)',
    means: 'admin key check → one batch: written and read back',
    tracking: true,
    call: (l) => ({
      method: 'PATCH',
      path: `/api/v1/release-sources/${l.tracking.sources.anilist}`,
      json: { enabled: true },
    }),
  }),
  writeRow({
    id: 'release-sources-poll-all',
    request: '`POST /release-sources/poll-now-all`',
    means: "admin key check → one batch: every enabled source's series made due; queued after the answer",
    tracking: true,
    setup: pollStart,
    call: () => ({ method: 'POST', path: '/api/v1/release-sources/poll-now-all', expect: [202] }),
    cleanup: (l, _n, made) => pollsDone(l, made.since!),
  }),
  writeRow({
    id: 'release-source-poll-now',
    request: '`POST /release-sources/{id}/poll-now` (MangaUpdates)',
    means: "admin key check → one batch: the source's series made due if it is enabled; queued after the answer",
    tracking: true,
    setup: pollStart,
    call: (l) => ({
      method: 'POST',
      path: `/api/v1/release-sources/${l.tracking.sources.mangaupdates}/poll-now`,
      expect: [202],
    }),
    cleanup: (l, _n, made) => pollsDone(l, made.since!, l.tracking.sources.mangaupdates),
  }),
  writeRow({
    id: 'release-source-reset',
    request: '`POST /release-sources/{id}/reset` (AniList, which records no releases)',
    means: "admin key check → one batch: the source's releases deleted, what its polls learnt forgotten",
    tracking: true,
    call: (l) => ({ method: 'POST', path: `/api/v1/release-sources/${l.tracking.sources.anilist}/reset` }),
  }),
  // `npm run migrate`'s batches (issue 33), each with a peer id not seen before, so it is imported, not found.
  writeRow({
    id: 'import-users',
    request: '`POST /admin/import/users` (one new user)',
    means:
      'admin key check ∥ one wave of reads (peer ids, accounts, libraries, labels: `checked-writes`) → one batch of writes',
    call: (_l, n) => ({
      method: 'POST',
      path: '/api/v1/admin/import/users',
      json: {
        source: PEER_SOURCE,
        mergeExisting: false,
        users: [peerUser(`far-user-${n}`, { username: `far-imported-${n}`, email: `far-imported-${n}@example.com` })],
      },
    }),
  }),
  writeRow({
    id: 'import-progress',
    request: "`POST /admin/import/progress` (one entry, newer than the user's)",
    means: 'admin key check ∥ the books and users (`checked-writes`) → the rows written (one statement)',
    call: (l, n) => ({
      method: 'POST',
      path: '/api/v1/admin/import/progress',
      json: {
        source: PEER_SOURCE,
        entries: [
          {
            userId: l.peer.id,
            bookId: l.book.id,
            page: 1 + (n % 2),
            completed: false,
            startedAt: '2026-01-01T00:00:00.000Z',
            updatedAt: new Date().toISOString(),
            completedAt: null,
            percentage: null,
            locator: null,
            epubSpineIndex: null,
            device: null,
          },
        ],
      },
    }),
  }),
  writeRow({
    id: 'import-want-to-read',
    request: '`POST /admin/import/want-to-read` (one entry)',
    means: 'admin key check → one statement',
    call: (l) => ({
      method: 'POST',
      path: '/api/v1/admin/import/want-to-read',
      json: { source: PEER_SOURCE, entries: [{ userId: l.peer.id, seriesId: l.series.id, bookId: null }] },
    }),
  }),
  writeRow({
    id: 'import-lists',
    request: "`POST /admin/import/lists` (one new read list of the peer user's)",
    means:
      'admin key check ∥ one wave of reads (peer ids, names, members, owners: `checked-writes`) → one batch of writes',
    call: (l, n) => ({
      method: 'POST',
      path: '/api/v1/admin/import/lists',
      json: {
        source: PEER_SOURCE,
        lists: [
          {
            foreignId: `far-list-${n}`,
            kind: 'readList',
            ownerId: l.peer.id,
            name: `Far imported list ${n}`,
            summary: null,
            ordered: true,
            memberIds: [l.book.id],
          },
        ],
      },
    }),
  }),
  writeRow({
    id: 'import-metadata',
    request:
      "`POST /admin/import/metadata` (a series' and a book's locked summary; the series' rating, kept as it is, and a sharing label no user is restricted by)",
    means:
      "admin key check ∥ one wave of reads (peer ids, the series and books with their terms, the labels named: `checked-writes`) → one batch: the series' labels and rating, the fields, credits, search rows and what is remembered",
    call: (l, n) => ({
      method: 'POST',
      path: '/api/v1/admin/import/metadata',
      json: {
        source: PEER_SOURCE,
        series: [
          {
            foreignId: `far-series-${n}`,
            seriesId: l.series.id,
            // The books carry no rating, so neither does the series: locking it as none hides nothing.
            locked: { summary: `Imported summary ${n}`, ageRating: null },
            sharingLabels: ['Far bench'],
          },
        ],
        books: [{ foreignId: `far-book-${n}`, bookId: l.book.id, locked: { summary: `Imported summary ${n}` } }],
      },
    }),
  }),
  writeRow({
    id: 'import-api-keys',
    request: "`POST /admin/import/api-keys` (one Komga key of the peer user's)",
    means:
      'admin key check ∥ one wave of reads (peer ids, owners, hashes taken: `checked-writes`) → one batch of writes',
    call: (l, n) => ({
      method: 'POST',
      path: '/api/v1/admin/import/api-keys',
      json: {
        source: PEER_SOURCE,
        keys: [
          {
            foreignId: `far-key-${n}`,
            userId: l.peer.id,
            name: `Far Komga key ${n}`,
            sha512: createHash('sha512').update(`far-key-${n}`).digest('hex'),
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        ],
      },
    }),
  }),
  writeRow({
    id: 'import-covers',
    request: '`POST /admin/import/covers` (a JPEG for a book; deselected after each call, not timed)',
    means:
      'admin key check ∥ the peer id ∥ the book, its selected cover ∥ the size setting (`checked-writes`); resize (near) → both images `CACHE.put` ∥ the cover row, its selection and what is remembered (one batch)',
    call: (l, n) => ({
      method: 'POST',
      path: `/api/v1/admin/import/covers?source=${PEER_SOURCE}&foreignId=far-cover-${n}&kind=book&id=${coverBook(l)}`,
      headers: { 'Content-Type': 'application/octet-stream' },
      body: l.coverJpeg,
    }),
    // A selected uploaded cover is read differently: the book goes back to its own before other rows see it.
    cleanup: async (l) => {
      await adminApi(l).call('DELETE', `/books/${coverBook(l)}/covers/selected`);
    },
  }),
  // Signing in, the web app ---------------------------------------------------------------------------------
  {
    id: 'login',
    request: '`POST /auth/login`',
    means:
      'throttle + user + settings (one batch) → argon2 → throttle, session, last login, activity (one batch); writes: the primary',
    target: 2,
    replicaTarget: 2,
    note: 6,
    call: (l) => ({
      method: 'POST',
      path: '/api/v1/auth/login',
      json: { username: l.admin.username, password: l.admin.password },
    }),
  },
  {
    id: 'me',
    request: '`GET /auth/me`, Bearer',
    means: 'session check, whose statement brings the user with their access',
    target: 1,
    replicaTarget: 0,
    note: 2,
    call: (l) => ({ path: '/api/v1/auth/me', headers: bearer(l) }),
  },
  {
    id: 'sse',
    request: '`GET /events/stream` (cookie), time to headers',
    means: 'session check ∥ `EVENT_HUB.subscribe` (a Durable Object: far, with replicas too)',
    target: 1,
    replicaTarget: 1,
    note: 2,
    call: (l) => ({
      path: '/api/v1/events/stream',
      headers: { Cookie: l.admin.cookie, Accept: 'text/event-stream' },
      untilHeaders: true,
    }),
  },
  {
    id: 'home',
    request: 'web app home screen, critical path after the shell (cold browser cache, warm server)',
    means: 'JSON calls (each: check → one wave), then the cover `<img>`s (each: check → cover row → `CACHE.get`)',
    target: 2,
    replicaTarget: 0,
    note: 5,
  },
];

/**
 * The n-th width never asked for on this server: odd (the made rendition's is even), below the page's width
 * (never enlarged), none repeated for the first (pageWidth − 200) / 2 calls.
 */
export function renditionWidth(l: Library, n: number): number {
  return 101 + 2 * (n % Math.max(1, Math.floor((l.pageWidth - 202) / 2)));
}

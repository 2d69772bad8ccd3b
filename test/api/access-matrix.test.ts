/**
 * The access matrix (issue 17, "Done when" 1; docs/DECISIONS.md §Organise and share, "Enforcement"): every
 * route of /api/v1 (from the OpenAPI document) and of /opds, /komga and /koreader (from the apps' route
 * tables) has an entry below, and a route without one fails the first test, as does an entry for a route
 * that no longer exists. For each entry, a maintainer restricted away from a library, from an age rating
 * and from a label — through their full API key, and through a key narrowed to one library — must
 *
 * - on a list, search, feed or facet: get no id, title, name, genre, tag, author, publisher or label of a
 *   hidden series or book, nor a count larger than what they see, while the admin's answer shows hidden
 *   items (so the check can fail);
 * - on a route taking the id (or KOReader hash) of a hidden item, read or write: get exactly what an
 *   unknown id gets — a 404 with the same body — while the admin's read answers it.
 *
 * Routes that read no catalog row say why in their entry. SSE streams are covered by access-events.test.ts.
 */
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createKomgaApp } from '../../src/komga/komga.app';
import { createKoboApp } from '../../src/kobo/kobo.app';
import { buildOpenApiDocument } from '../../src/openapi/document';
import { type AccessFixture, buildAccessFixture, tracesOf } from '../support/access-fixture';
import { eq } from 'drizzle-orm';
import { readingSessions, releaseLedger, releaseSources, wantToRead } from '../../src/db/schema';
import { db, seedProgress } from '../support/catalog-factory';
import { createApiKey } from '../support/factories';
import { png } from '../fixtures/images';
import { api } from '../support/http';
import { withHash } from '../support/koreader-statistics-spec.mjs';

const base64Bytes = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

type Target = 'book' | 'series' | 'library' | 'task' | 'duplicate' | 'hash' | 'collection' | 'readlist' | 'release';

type Entry =
  /** Reads catalog rows: nothing hidden in the restricted answers, hidden items in the admin's. */
  | {
      list: string;
      method?: 'POST' | 'PATCH' | 'PUT';
      json?: unknown | ((ids: MatrixIds) => unknown);
      /** A raw body (a ComicRack file), or a form built from it. */
      body?: (ids: MatrixIds) => string | FormData;
      /** Why the admin's answer cannot show a hidden item (the fixture has none of its kind). */
      adminShowsNothing?: string;
      /** Strings to look for instead of the hidden series' traces. */
      tokens?: { hidden: string[] };
      /** Why the answer may repeat the request's names: only ids of hidden items are looked for. */
      echoes?: string;
    }
  /** Takes the id of a catalog item in its path (or body, for KOReader): hidden answers as unknown. */
  | {
      hides: Target;
      json?: unknown | ((id: string, ids: MatrixIds) => unknown);
      body?: string | (() => FormData);
      /** A file naming the id, sent as the raw body (a KOReader statistics database naming the hash). */
      file?: (id: string) => Uint8Array;
      /** Values of the path's other parameters (and of a trailing `*`), given the hidden id. */
      params?: (ids: MatrixIds, id: string) => Record<string, string>;
      /** Appended to the path. */
      query?: string;
      /** Which book of a hidden series (previous needs the second). */
      bookIndex?: number;
      /** The status an unknown id gets, when not 404 (KOReader answers its own codes). */
      unknownStatus?: number;
      /** The restricted caller lacks the permission: a 403 for hidden and unknown ids alike. */
      forbidden?: true;
      /** What the admin's read gets when it is not a success, and why (the check then rests on the two ids). */
      admin?: { status: number; why: string };
      /** A list shared by visible and hidden items, read through this route: checked as a list entry is. */
      members?: (ids: MatrixIds) => ListEntry;
    }
  /** Reads or writes no catalog row. */
  | { none: string };

type ListEntry = Extract<Entry, { list: string }>;

const NOT_CATALOG = 'no catalog rows: the caller’s own account, keys, settings or sign-in';
const ADMIN_ONLY =
  'admin only (users, settings, SSO, imports from Komga or Kavita): a maintainer gets 403 before any read';
const OWN_OR_ADMIN = 'no catalog rows: the caller’s own account, or (admin only) another user’s';
const SSE = 'an event stream: test/api/access-events.test.ts';
const NO_SCAN = 'no scan runs during the check (what a running scan shows: access-events.test.ts)';
const COUNTS_ONLY = 'counts only, checked against what the viewer may count';
const NAVIGATION = 'navigation links only';
const LIST_ONLY = 'the list alone, no member ids: its counts are checked; its members are read by …/series, …/books';
const ECHOES = 'the report repeats the file’s series names; ids of hidden books would be the leak';
const NOT_EPUB = { status: 400, why: 'the fixture’s books are CBZ, not EPUB (an EPUB’s: komga-readium.test.ts)' };
const COUNT_OF_CHANGES = 'a count of what changed: hidden ids are skipped, so a larger count fails the check';

const v1 = (path: string) => `/api/v1${path}`;
const progression = {
  modified: '2026-01-01T00:00:00Z',
  locator: { href: '/1', type: 'image/png', locations: { position: 1 } },
};

/** Ids the list, cover and metadata entries name (made by buildLists). */
interface MatrixIds {
  /** Zork Xteen and its first book: seen by both restricted callers. */
  visibleSeries: string;
  visibleBook: string;
  allSeries: string[];
  allBooks: string[];
  /** A collection and a read list of every series and book. */
  mixedCollection: string;
  mixedReadList: string;
  /** A smart collection of books whose condition every book meets. */
  smartBooks: string;
  /** Members of the lists made only of hidden items (the targets). */
  hiddenCollectionSeries: string[];
  hiddenReadListBooks: string[];
  /** An uploaded cover of each hidden series and book, by its owner's id. */
  coverOf: Record<string, string>;
  /** A ComicRack reading list naming the first book of every series. */
  cbl: string;
  /** A release (issue 32) of every series, by series id. */
  releaseOf: Record<string, string>;
}

const fileForm = (content: string | Uint8Array, name: string) => {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  return form;
};
const coverForm = () => fileForm(png(40, 60, 7), 'cover.png');
/** The hidden item's own uploaded cover, for both calls (so only the owner's id differs). */
const coverParam = (name: string) => (ids: MatrixIds, id: string) => ({ [name]: ids.coverOf[id] as string });

const ENTRIES: Record<string, Entry> = {
  // --- /api/v1 -------------------------------------------------------------------------------------------
  'GET /api/v1/admin/settings': { none: ADMIN_ONLY },
  'GET /api/v1/admin/settings/{key}': { none: ADMIN_ONLY },
  'GET /api/v1/admin/settings/{key}/history': { none: ADMIN_ONLY },
  'PUT /api/v1/admin/settings/{key}': { none: ADMIN_ONLY },
  'POST /api/v1/admin/settings/{key}/reset': { none: ADMIN_ONLY },
  'POST /api/v1/admin/settings/bulk': { none: ADMIN_ONLY },
  'GET /api/v1/admin/sso': { none: ADMIN_ONLY },
  'POST /api/v1/admin/import/books/match': { none: ADMIN_ONLY },
  'POST /api/v1/admin/import/users': { none: ADMIN_ONLY },
  'POST /api/v1/admin/import/progress': { none: ADMIN_ONLY },
  'POST /api/v1/admin/import/want-to-read': { none: ADMIN_ONLY },
  'POST /api/v1/admin/import/lists': { none: ADMIN_ONLY },
  'POST /api/v1/admin/import/metadata': { none: ADMIN_ONLY },
  'POST /api/v1/admin/import/api-keys': { none: ADMIN_ONLY },
  'POST /api/v1/admin/import/covers': { none: ADMIN_ONLY },
  'GET /api/v1/health': { none: 'liveness, no catalog rows' },
  'GET /api/v1/api-keys': { none: NOT_CATALOG },
  'POST /api/v1/api-keys': { none: 'the caller’s keys; the libraries a key may name: api-keys.test.ts' },
  'GET /api/v1/api-keys/{id}': { none: NOT_CATALOG },
  'PUT /api/v1/api-keys/{id}': { none: NOT_CATALOG },
  'DELETE /api/v1/api-keys/{id}': { none: NOT_CATALOG },
  'GET /api/v1/auth/me': { none: NOT_CATALOG },
  'GET /api/v1/auth/session': { none: NOT_CATALOG },
  'POST /api/v1/auth/login': { none: NOT_CATALOG },
  'POST /api/v1/auth/logout': { none: NOT_CATALOG },
  'POST /api/v1/auth/register': { none: NOT_CATALOG },
  'POST /api/v1/auth/resend-verification': { none: NOT_CATALOG },
  'POST /api/v1/auth/verify-email': { none: NOT_CATALOG },
  'PUT /api/v1/auth/password': { none: NOT_CATALOG },
  'GET /api/v1/auth/oidc/providers': { none: NOT_CATALOG },
  'GET /api/v1/auth/oidc/{provider}/callback': { none: NOT_CATALOG },
  'POST /api/v1/auth/oidc/{provider}/login': { none: NOT_CATALOG },
  'GET /api/v1/setup/status': { none: NOT_CATALOG },
  'POST /api/v1/setup/initialize': { none: NOT_CATALOG },
  'GET /api/v1/user/identities': { none: NOT_CATALOG },
  'DELETE /api/v1/user/identities/{identityId}': { none: NOT_CATALOG },
  'GET /api/v1/user/preferences': { none: NOT_CATALOG },
  'PUT /api/v1/user/preferences/{key}': { none: NOT_CATALOG },
  'DELETE /api/v1/user/preferences/{key}': { none: NOT_CATALOG },
  'GET /api/v1/users': { none: ADMIN_ONLY },
  'POST /api/v1/users': { none: ADMIN_ONLY },
  'GET /api/v1/users/{id}': { none: ADMIN_ONLY },
  'PUT /api/v1/users/{id}': { none: ADMIN_ONLY },
  'DELETE /api/v1/users/{id}': { none: ADMIN_ONLY },
  'GET /api/v1/users/{id}/identities': { none: ADMIN_ONLY },
  'DELETE /api/v1/users/{id}/identities/{identityId}': { none: ADMIN_ONLY },
  'GET /api/v1/admin/sharing-tags': { none: ADMIN_ONLY },
  'POST /api/v1/admin/sharing-tags': { none: ADMIN_ONLY },
  'GET /api/v1/admin/sharing-tags/{id}': { none: ADMIN_ONLY },
  'PUT /api/v1/admin/sharing-tags/{id}': { none: ADMIN_ONLY },
  'DELETE /api/v1/admin/sharing-tags/{id}': { none: ADMIN_ONLY },
  'GET /api/v1/users/{id}/sharing-tags': { none: ADMIN_ONLY },
  'PUT /api/v1/users/{id}/sharing-tags': { none: ADMIN_ONLY },
  'DELETE /api/v1/users/{id}/sharing-tags/{tagId}': { none: ADMIN_ONLY },
  'GET /api/v1/user/sharing-tags': { none: NOT_CATALOG },
  'GET /api/v1/filesystem/drives': { none: 'the bucket, not the catalog: for viewers who see everything (403)' },
  'GET /api/v1/filesystem/browse': { list: v1('/filesystem/browse?path=beta') },
  'GET /api/v1/events/stream': { none: SSE },
  'GET /api/v1/tasks/stream': { none: SSE },
  'GET /api/v1/scans/stream': { none: SSE },

  'GET /api/v1/books': { list: v1('/books?pageSize=100') },
  'POST /api/v1/books/list': { list: v1('/books/list?pageSize=100'), method: 'POST', json: { fullTextSearch: 'zork' } },
  'GET /api/v1/books/in-progress': { list: v1('/books/in-progress') },
  'GET /api/v1/books/on-deck': { list: v1('/books/on-deck') },
  'GET /api/v1/books/recently-added': { list: v1('/books/recently-added') },
  'GET /api/v1/books/recently-read': { list: v1('/books/recently-read') },
  'GET /api/v1/books/{id}': { hides: 'book' },
  'GET /api/v1/books/{id}/file': { hides: 'book' },
  'GET /api/v1/books/{id}/pages': { hides: 'book' },
  'GET /api/v1/books/{book_id}/pages/{page_number}': { hides: 'book' },
  'GET /api/v1/books/{id}/thumbnail': { hides: 'book' },
  'GET /api/v1/books/{id}/progress': { hides: 'book' },
  'PUT /api/v1/books/{id}/progress': { hides: 'book', json: { current_page: 1 } },
  'DELETE /api/v1/books/{id}/progress': { hides: 'book' },
  'POST /api/v1/books/{id}/read': { hides: 'book' },
  'POST /api/v1/books/{id}/unread': { hides: 'book' },
  'POST /api/v1/books/{id}/analyze': { hides: 'book' },
  // Deleting files is an administrator's (SystemAdmin): the maintainer is refused before any read.
  'DELETE /api/v1/books/{id}/file': { hides: 'book', forbidden: true, query: '?confirm=true' },
  'GET /api/v1/progress': { list: v1('/progress?pageSize=100') },
  'GET /api/v1/progress/currently-reading': { list: v1('/progress/currently-reading') },
  // Reading statistics (issue 35): the seeded sessions cover every book, hidden ones included.
  'GET /api/v1/reading-stats': { list: v1('/reading-stats?granularity=month&seriesLimit=100') },
  'GET /api/v1/reading-stats/coverage': { none: 'two dates of the caller’s reading on books they see, no id or name' },
  'GET /api/v1/reading-sessions/export': { list: v1('/reading-sessions/export') },
  'POST /api/v1/reading-sessions': {
    hides: 'book',
    unknownStatus: 200,
    json: (id: string) => ({
      sessions: [
        {
          id: 'matrix-session',
          bookId: id,
          deviceId: 'matrix',
          activeDurationMs: 60_000,
          clientStartedAt: '2026-01-01T10:00:00Z',
          clientEndedAt: '2026-01-01T10:05:00Z',
        },
      ],
    }),
  },
  // A KOReader statistics database naming the book by its KOReader hash: a hidden book is one Longbox does not have.
  'POST /api/v1/reading-sessions/koreader': {
    hides: 'hash',
    unknownStatus: 200,
    file: (hash: string) => withHash(base64Bytes(env.KOREADER_FIXTURES.matrix as string), hash),
  },
  'DELETE /api/v1/reading-sessions': { none: 'deletes the caller’s own sessions, reads no catalog row' },
  'PUT /api/v1/reading-devices/{deviceId}': { none: 'names one of the caller’s devices, reads no catalog row' },
  'GET /api/v1/admin/reading-stats': { none: ADMIN_ONLY },
  'GET /api/v1/duplicates': { list: v1('/duplicates') },
  'POST /api/v1/duplicates/scan': { none: 'queues a task; its groups are read through GET /duplicates' },
  'DELETE /api/v1/duplicates/{id}': { hides: 'duplicate' },

  'GET /api/v1/series': { list: v1('/series?pageSize=100') },
  'POST /api/v1/series/list': {
    list: v1('/series/list?pageSize=100'),
    method: 'POST',
    json: { fullTextSearch: 'zork' },
  },
  'POST /api/v1/series/search': { list: v1('/series/search'), method: 'POST', json: { query: 'zork' } },
  'GET /api/v1/series/in-progress': { list: v1('/series/in-progress') },
  'GET /api/v1/series/recently-added': { list: v1('/series/recently-added') },
  'GET /api/v1/series/recently-updated': { list: v1('/series/recently-updated') },
  'GET /api/v1/series/{id}': { hides: 'series' },
  'GET /api/v1/series/{id}/books': { hides: 'series' },
  'GET /api/v1/series/{id}/thumbnail': { hides: 'series' },
  'POST /api/v1/series/{id}/read': { hides: 'series' },
  'POST /api/v1/series/{id}/unread': { hides: 'series' },
  'POST /api/v1/series/{id}/analyze': { hides: 'series' },
  'DELETE /api/v1/series/{id}/file': { hides: 'series', forbidden: true, query: '?confirm=true' },
  'GET /api/v1/series/{id}/sharing-tags': { hides: 'series' },
  // Tagging a series is user administration (UsersWrite): the maintainer is refused before any read.
  'PUT /api/v1/series/{id}/sharing-tags': { hides: 'series', forbidden: true, json: { sharingTagIds: [] } },
  'POST /api/v1/series/{id}/sharing-tags': {
    hides: 'series',
    forbidden: true,
    json: { sharingTagId: '00000000-0000-4000-8000-000000000000' },
  },
  'DELETE /api/v1/series/{id}/sharing-tags/{tagId}': { hides: 'series', forbidden: true },

  // --- /api/v1 collections, read lists, want to read (issue 19) --------------------------------------------
  // The fixture's lists (buildLists): "Mixed Shelf" / "Mixed List" hold every series / book, "Zork Xsecret
  // Shelf" / "Zork Xsecret List" only hidden ones (the targets); the queues of both users hold every series
  // and each series' first book.
  'GET /api/v1/collections': { list: v1('/collections?pageSize=100') },
  'POST /api/v1/collections': {
    hides: 'series',
    unknownStatus: 400,
    json: (id: string) => ({ name: 'Made by the matrix', seriesIds: [id] }),
  },
  'GET /api/v1/collections/{id}': {
    hides: 'collection',
    members: (ids) => ({ list: v1(`/collections/${ids.mixedCollection}`), adminShowsNothing: LIST_ONLY }),
  },
  'PATCH /api/v1/collections/{id}': { hides: 'collection', json: { name: 'Renamed' } },
  'DELETE /api/v1/collections/{id}': { hides: 'collection' },
  'GET /api/v1/collections/{id}/series': {
    hides: 'collection',
    members: (ids) => ({ list: v1(`/collections/${ids.mixedCollection}/series?pageSize=100`) }),
  },
  'GET /api/v1/collections/{id}/books': {
    hides: 'collection',
    admin: { status: 409, why: 'the hidden collection is a collection of series, not a smart collection of books' },
    members: (ids) => ({ list: v1(`/collections/${ids.smartBooks}/books?pageSize=100`) }),
  },
  'POST /api/v1/collections/{id}/series': {
    hides: 'collection',
    json: (_: string, ids: MatrixIds) => ({ seriesIds: [ids.visibleSeries] }),
  },
  'PUT /api/v1/collections/{id}/series': {
    hides: 'collection',
    json: (_: string, ids: MatrixIds) => ({ seriesIds: [ids.visibleSeries] }),
  },
  'DELETE /api/v1/collections/{id}/series/{seriesId}': {
    hides: 'collection',
    params: (ids) => ({ seriesId: ids.hiddenCollectionSeries[0] as string }),
  },
  'GET /api/v1/collections/{id}/thumbnail': { hides: 'collection' },
  'GET /api/v1/series/{id}/collections': { hides: 'series' },
  'GET /api/v1/readlists': { list: v1('/readlists?pageSize=100') },
  'POST /api/v1/readlists': {
    hides: 'book',
    unknownStatus: 400,
    json: (id: string) => ({ name: 'Made by the matrix', bookIds: [id] }),
  },
  'POST /api/v1/readlists/import/cbl': {
    list: v1('/readlists/import/cbl?dryRun=true'),
    method: 'POST',
    body: (ids) => ids.cbl,
    echoes: ECHOES,
  },
  'GET /api/v1/readlists/{id}': {
    hides: 'readlist',
    members: (ids) => ({ list: v1(`/readlists/${ids.mixedReadList}`), adminShowsNothing: LIST_ONLY }),
  },
  'PATCH /api/v1/readlists/{id}': { hides: 'readlist', json: { name: 'Renamed' } },
  'DELETE /api/v1/readlists/{id}': { hides: 'readlist' },
  'GET /api/v1/readlists/{id}/books': {
    hides: 'readlist',
    members: (ids) => ({ list: v1(`/readlists/${ids.mixedReadList}/books?pageSize=100`) }),
  },
  'POST /api/v1/readlists/{id}/books': {
    hides: 'readlist',
    json: (_: string, ids: MatrixIds) => ({ bookIds: [ids.visibleBook] }),
  },
  'PUT /api/v1/readlists/{id}/books': {
    hides: 'readlist',
    json: (_: string, ids: MatrixIds) => ({ bookIds: [ids.visibleBook] }),
  },
  'DELETE /api/v1/readlists/{id}/books/{bookId}': {
    hides: 'readlist',
    params: (ids) => ({ bookId: ids.hiddenReadListBooks[0] as string }),
  },
  'GET /api/v1/readlists/{id}/books/{bookId}/next': {
    hides: 'readlist',
    params: (ids) => ({ bookId: ids.hiddenReadListBooks[0] as string }),
  },
  'GET /api/v1/readlists/{id}/books/{bookId}/previous': {
    hides: 'readlist',
    params: (ids) => ({ bookId: ids.hiddenReadListBooks[1] as string }),
  },
  'GET /api/v1/readlists/{id}/thumbnail': { hides: 'readlist' },
  'GET /api/v1/books/{id}/readlists': { hides: 'book' },
  'GET /api/v1/want-to-read': { list: v1('/want-to-read?pageSize=100') },
  // Queuing, reordering: a hidden id is the 400 naming it that an unknown one gets.
  'POST /api/v1/want-to-read': { hides: 'series', unknownStatus: 400, json: (id: string) => ({ seriesId: id }) },
  'POST /api/v1/want-to-read/bulk': { hides: 'book', unknownStatus: 400, json: (id: string) => ({ bookIds: [id] }) },
  'PUT /api/v1/want-to-read/order': { hides: 'series', unknownStatus: 400, json: (id: string) => ({ ids: [id] }) },
  // The restricted user's queue holds the hidden series and books (queued before the restriction).
  'DELETE /api/v1/want-to-read/series/{id}': { hides: 'series' },
  'DELETE /api/v1/want-to-read/books/{id}': { hides: 'book' },

  // --- /api/v1 release tracking (issue 32) ------------------------------------------------------------------
  'GET /api/v1/series/{id}/tracking': { hides: 'series' },
  'PATCH /api/v1/series/{id}/tracking': { hides: 'series', json: { trackChapters: true } },
  'POST /api/v1/series/{id}/tracking/poll-now': { hides: 'series' },
  'GET /api/v1/series/{id}/aliases': { hides: 'series' },
  'POST /api/v1/series/{id}/aliases': { hides: 'series', json: { alias: 'Another Name' } },
  'DELETE /api/v1/series/{id}/aliases/{aliasId}': { hides: 'series', params: () => ({ aliasId: crypto.randomUUID() }) },
  'GET /api/v1/series/{id}/external-ids': { hides: 'series' },
  'POST /api/v1/series/{id}/external-ids': { hides: 'series', json: { source: 'mangaupdates', externalId: '12345' } },
  'DELETE /api/v1/series/{id}/external-ids/{externalIdId}': {
    hides: 'series',
    params: () => ({ externalIdId: crypto.randomUUID() }),
  },
  'GET /api/v1/series/{id}/releases': { hides: 'series' },
  'GET /api/v1/releases': { list: v1('/releases?state=all&pageSize=500') },
  // A hidden release is skipped as an unknown one is: both answer {affected: 0}.
  'POST /api/v1/releases/bulk': {
    hides: 'release',
    unknownStatus: 200,
    json: (id: string) => ({ ids: [id], action: 'dismiss' }),
  },
  'PATCH /api/v1/releases/{id}': { hides: 'release', json: { state: 'dismissed' } },
  'DELETE /api/v1/releases/{id}': { hides: 'release' },
  'POST /api/v1/releases/{id}/dismiss': { hides: 'release' },
  'POST /api/v1/releases/{id}/mark-acquired': { hides: 'release' },
  'GET /api/v1/release-sources': { none: ADMIN_ONLY },
  'POST /api/v1/release-sources/poll-now-all': { none: ADMIN_ONLY },
  'PATCH /api/v1/release-sources/{id}': { none: ADMIN_ONLY },
  'POST /api/v1/release-sources/{id}/poll-now': { none: ADMIN_ONLY },
  'POST /api/v1/release-sources/{id}/reset': { none: ADMIN_ONLY },

  // --- /api/v1 metadata and covers (issue 18) -----------------------------------------------------------------
  'GET /api/v1/series/{id}/metadata': { hides: 'series' },
  'PATCH /api/v1/series/{id}/metadata': { hides: 'series', json: { summary: 'Edited' } },
  'GET /api/v1/series/{id}/metadata/locks': { hides: 'series' },
  'PUT /api/v1/series/{id}/metadata/locks': { hides: 'series', json: { summary: false } },
  'PATCH /api/v1/series/bulk/metadata': {
    list: v1('/series/bulk/metadata'),
    method: 'PATCH',
    json: (ids: MatrixIds) => ({ seriesIds: ids.allSeries, summary: `Edited ${crypto.randomUUID()}` }),
    adminShowsNothing: COUNT_OF_CHANGES,
  },
  'PUT /api/v1/series/bulk/metadata/locks': {
    list: v1('/series/bulk/metadata/locks'),
    method: 'PUT',
    json: (ids: MatrixIds) => ({ seriesIds: ids.allSeries, summary: false }),
    adminShowsNothing: COUNT_OF_CHANGES,
  },
  'GET /api/v1/books/{id}/metadata': { hides: 'book' },
  'PATCH /api/v1/books/{id}/metadata': { hides: 'book', json: { summary: 'Edited' } },
  'GET /api/v1/books/{id}/metadata/locks': { hides: 'book' },
  'PUT /api/v1/books/{id}/metadata/locks': { hides: 'book', json: { summary: false } },
  'PATCH /api/v1/books/bulk/metadata': {
    list: v1('/books/bulk/metadata'),
    method: 'PATCH',
    json: (ids: MatrixIds) => ({ bookIds: ids.allBooks, summary: `Edited ${crypto.randomUUID()}` }),
    adminShowsNothing: COUNT_OF_CHANGES,
  },
  'PUT /api/v1/books/bulk/metadata/locks': {
    list: v1('/books/bulk/metadata/locks'),
    method: 'PUT',
    json: (ids: MatrixIds) => ({ bookIds: ids.allBooks, summary: false }),
    adminShowsNothing: COUNT_OF_CHANGES,
  },
  'POST /api/v1/series/{id}/cover': { hides: 'series', body: coverForm },
  'GET /api/v1/series/{id}/covers': { hides: 'series' },
  'DELETE /api/v1/series/{id}/covers/selected': { hides: 'series' },
  'DELETE /api/v1/series/{id}/covers/{coverId}': { hides: 'series', params: coverParam('coverId') },
  'GET /api/v1/series/{id}/covers/{coverId}/image': { hides: 'series', params: coverParam('coverId') },
  'PUT /api/v1/series/{id}/covers/{coverId}/select': { hides: 'series', params: coverParam('coverId') },
  'POST /api/v1/books/{id}/cover': { hides: 'book', body: coverForm },
  'GET /api/v1/books/{id}/covers': { hides: 'book' },
  'DELETE /api/v1/books/{id}/covers/selected': { hides: 'book' },
  'DELETE /api/v1/books/{id}/covers/{coverId}': { hides: 'book', params: coverParam('coverId') },
  'GET /api/v1/books/{id}/covers/{coverId}/image': { hides: 'book', params: coverParam('coverId') },
  'PUT /api/v1/books/{id}/covers/{coverId}/select': { hides: 'book', params: coverParam('coverId') },

  'GET /api/v1/libraries': { list: v1('/libraries') },
  'POST /api/v1/libraries': { none: 'creates a library: for viewers who see everything (403)' },
  'GET /api/v1/libraries/{id}': { hides: 'library' },
  'PUT /api/v1/libraries/{id}': { hides: 'library', json: { name: 'Renamed' } },
  'DELETE /api/v1/libraries/{id}': { hides: 'library', forbidden: true },
  'GET /api/v1/libraries/{id}/thumbnail': { hides: 'library' },
  'GET /api/v1/libraries/{id}/scan-status': { hides: 'library' },
  'POST /api/v1/libraries/{id}/scan': { hides: 'library' },
  'POST /api/v1/libraries/{id}/scan/cancel': { hides: 'library' },
  'POST /api/v1/libraries/{id}/empty-trash': { hides: 'library' },
  'PUT /api/v1/libraries/{id}/files/{path}': { hides: 'library', body: 'not a book' },
  'POST /api/v1/libraries/{id}/files/{path}': { hides: 'library', query: '?uploads' },
  'DELETE /api/v1/libraries/{id}/files/{path}': { hides: 'library', query: '?uploadId=abc' },
  'GET /api/v1/scans/active': { list: v1('/scans/active'), adminShowsNothing: NO_SCAN },
  'GET /api/v1/tasks': { list: v1('/tasks?pageSize=500') },
  'GET /api/v1/tasks/stats': { list: v1('/tasks/stats'), adminShowsNothing: COUNTS_ONLY },
  'GET /api/v1/tasks/{id}': { hides: 'task', forbidden: true },
  'POST /api/v1/tasks/{id}/cancel': { hides: 'task', forbidden: true },
  'GET /api/v1/metrics': { list: v1('/metrics'), adminShowsNothing: COUNTS_ONLY },

  // --- /opds -----------------------------------------------------------------------------------------------
  'GET /opds/v1.2/catalog': { list: '/opds/v1.2/catalog', adminShowsNothing: NAVIGATION },
  'GET /opds/v1.2/opensearch.xml': { none: 'the search template, no catalog rows' },
  'GET /opds/v1.2/libraries': { list: '/opds/v1.2/libraries' },
  'GET /opds/v1.2/libraries/{id}': { hides: 'library' },
  'GET /opds/v1.2/libraries/{id}/books': { hides: 'library' },
  'GET /opds/v1.2/series': { list: '/opds/v1.2/series?pageSize=100' },
  'GET /opds/v1.2/series/{id}': { hides: 'series' },
  'GET /opds/v1.2/series/{id}/thumbnail': { hides: 'series' },
  'GET /opds/v1.2/keep-reading': { list: '/opds/v1.2/keep-reading' },
  'GET /opds/v1.2/on-deck': { list: '/opds/v1.2/on-deck' },
  'GET /opds/v1.2/recently-added': { list: '/opds/v1.2/recently-added?pageSize=100' },
  'GET /opds/v1.2/search': {
    list: '/opds/v1.2/search?query=zork',
    adminShowsNothing: 'one entry per kind of match, with its count; the items are in …/search/series, …/search/books',
  },
  'GET /opds/v1.2/search/series': { list: '/opds/v1.2/search/series?query=zork&pageSize=100' },
  'GET /opds/v1.2/search/books': { list: '/opds/v1.2/search/books?query=zork&pageSize=100' },
  'GET /opds/v1.2/books/{id}/thumbnail': { hides: 'book' },
  'GET /opds/v1.2/books/{id}/pages/{pageNumber}': { hides: 'book' },
  'GET /opds/v1.2/collections': { list: '/opds/v1.2/collections' },
  'GET /opds/v1.2/collections/{id}': {
    hides: 'collection',
    members: (ids) => ({ list: `/opds/v1.2/collections/${ids.mixedCollection}` }),
  },
  'GET /opds/v1.2/readlists': { list: '/opds/v1.2/readlists' },
  'GET /opds/v1.2/readlists/{id}': {
    hides: 'readlist',
    members: (ids) => ({ list: `/opds/v1.2/readlists/${ids.mixedReadList}` }),
  },
  'GET /opds/v1.2/want-to-read': { list: '/opds/v1.2/want-to-read' },
  'GET /opds/v2.0/collections': { list: '/opds/v2.0/collections' },
  'GET /opds/v2.0/collections/{id}': {
    hides: 'collection',
    members: (ids) => ({ list: `/opds/v2.0/collections/${ids.mixedCollection}` }),
  },
  'GET /opds/v2.0/readlists': { list: '/opds/v2.0/readlists' },
  'GET /opds/v2.0/readlists/{id}': {
    hides: 'readlist',
    members: (ids) => ({ list: `/opds/v2.0/readlists/${ids.mixedReadList}` }),
  },
  'GET /opds/v2.0/want-to-read': { list: '/opds/v2.0/want-to-read' },
  'GET /opds/v2.0/auth': { none: 'the authentication document, no catalog rows' },
  'GET /opds/v2.0/placeholders/{format}': { none: 'a generated cover, the same for every book of a kind' },
  'GET /opds/v2.0/catalog': { list: '/opds/v2.0/catalog', adminShowsNothing: NAVIGATION },
  'GET /opds/v2.0/libraries': { list: '/opds/v2.0/libraries' },
  'GET /opds/v2.0/libraries/{id}': { hides: 'library' },
  'GET /opds/v2.0/libraries/{id}/books': { hides: 'library' },
  'GET /opds/v2.0/series': { list: '/opds/v2.0/series?pageSize=100' },
  'GET /opds/v2.0/series/{id}': { hides: 'series' },
  'GET /opds/v2.0/series/{id}/thumbnail': { hides: 'series' },
  'GET /opds/v2.0/keep-reading': { list: '/opds/v2.0/keep-reading' },
  'GET /opds/v2.0/on-deck': { list: '/opds/v2.0/on-deck' },
  'GET /opds/v2.0/recently-added': { list: '/opds/v2.0/recently-added?pageSize=100' },
  'GET /opds/v2.0/search': { list: '/opds/v2.0/search?query=zork&pageSize=100' },
  'GET /opds/v2.0/books/{id}': { hides: 'book' },
  'GET /opds/v2.0/books/{id}/manifest': { hides: 'book' },
  'GET /opds/v2.0/books/{id}/thumbnail': { hides: 'book' },
  'GET /opds/v2.0/books/{id}/pages/{pageNumber}': { hides: 'book' },
  'GET /opds/v2.0/books/{id}/progression': { hides: 'book' },
  'PUT /opds/v2.0/books/{id}/progression': { hides: 'book', json: progression },

  // --- /koreader -------------------------------------------------------------------------------------------
  'GET /koreader/healthcheck': { none: 'no catalog rows' },
  'GET /koreader/users/auth': { none: NOT_CATALOG },
  'POST /koreader/users/create': { none: NOT_CATALOG },
  'GET /koreader/syncs/progress/{document}': { hides: 'hash', unknownStatus: 200 },
  'PUT /koreader/syncs/progress': {
    hides: 'hash',
    // KOReader's "invalid request" (code 2003) for a document no book has.
    unknownStatus: 403,
    json: (hash: string) => ({ document: hash, progress: '2', percentage: 0.5, device: 'kobo', device_id: 'K1' }),
  },

  // --- /kobo (issue 34): the API key is the path's first segment; `{apiKey}` is the caller's ---------------------
  'GET /kobo/{apiKey}/v1/initialization': { none: 'the resources document: Kobo service URLs and image templates' },
  'POST /kobo/{apiKey}/v1/auth/device': { none: 'device sign-in: tokens the device keeps, no catalog rows' },
  'POST /kobo/{apiKey}/v1/auth/refresh': { none: 'device sign-in: tokens the device keeps, no catalog rows' },
  // Each key's first sync is a full one: every book, reading state and shelf the device may have.
  'GET /kobo/{apiKey}/v1/library/sync': { list: '/kobo/{apiKey}/v1/library/sync' },
  'GET /kobo/{apiKey}/v1/library/{bookId}/metadata': { hides: 'book' },
  'GET /kobo/{apiKey}/v1/library/{bookId}/state': { hides: 'book' },
  'PUT /kobo/{apiKey}/v1/library/{bookId}/state': {
    hides: 'book',
    json: {
      ReadingStates: [
        {
          StatusInfo: { Status: 'Reading' },
          CurrentBookmark: { ProgressPercent: 50, Location: { Source: 'OEBPS/page-0001.xhtml', Type: 'KoboSpan' } },
          Statistics: { SpentReadingMinutes: 3 },
        },
      ],
    },
  },
  'GET /kobo/{apiKey}/v1/books/{bookId}/file/epub': { hides: 'book' },
  'HEAD /kobo/{apiKey}/v1/books/{bookId}/file/epub': { hides: 'book' },
  'GET /kobo/{apiKey}/v1/books/{imageId}/thumbnail/{width}/{height}/{greyscale}/image.jpg': {
    hides: 'book',
    params: () => ({ width: '80', height: '120', greyscale: 'false' }),
  },
  'GET /kobo/{apiKey}/v1/books/{imageId}/thumbnail/{width}/{height}/{quality}/{greyscale}/image.jpg': {
    hides: 'book',
    params: () => ({ width: '80', height: '120', quality: '85', greyscale: 'true' }),
  },

  // --- /komga ----------------------------------------------------------------------------------------------
  'POST /komga/api/logout': { none: NOT_CATALOG },
  'GET /komga/api/v1/users/me': { none: NOT_CATALOG },
  'GET /komga/api/v2/users/me': { none: NOT_CATALOG },
  'GET /komga/sse/v1/events': { none: SSE },
  'GET /komga/api/v1/age-ratings': { list: '/komga/api/v1/age-ratings', tokens: { hidden: ['"18"'] } },
  'GET /komga/api/v1/sharing-labels': { list: '/komga/api/v1/sharing-labels' },
  'GET /komga/api/v2/users': { none: ADMIN_ONLY },
  'POST /komga/api/v2/users': { none: ADMIN_ONLY },
  'PATCH /komga/api/v2/users/{id}': { none: ADMIN_ONLY },
  'DELETE /komga/api/v2/users/{id}': { none: ADMIN_ONLY },
  'PATCH /komga/api/v2/users/me/password': { none: NOT_CATALOG },
  'PATCH /komga/api/v2/users/{id}/password': { none: OWN_OR_ADMIN },
  'GET /komga/api/v2/users/me/authentication-activity': { none: NOT_CATALOG },
  'GET /komga/api/v2/users/authentication-activity': { none: ADMIN_ONLY },
  'GET /komga/api/v2/users/{id}/authentication-activity/latest': { none: OWN_OR_ADMIN },
  'PATCH /komga/api/v1/series/{id}/metadata': { hides: 'series', json: { sharingLabels: ['xopen'] } },
  'GET /komga/api/v1/authors': { list: '/komga/api/v1/authors' },
  'GET /komga/api/v2/authors': { list: '/komga/api/v2/authors?size=500' },
  'GET /komga/api/v1/genres': { list: '/komga/api/v1/genres' },
  'GET /komga/api/v1/tags': { list: '/komga/api/v1/tags' },
  'GET /komga/api/v1/tags/book': { list: '/komga/api/v1/tags/book' },
  'GET /komga/api/v1/tags/series': { list: '/komga/api/v1/tags/series' },
  'GET /komga/api/v1/publishers': { list: '/komga/api/v1/publishers' },
  'GET /komga/api/v1/languages': {
    list: '/komga/api/v1/languages',
    adminShowsNothing: 'the fixture’s files name no language',
  },
  'GET /komga/api/v1/collections': { list: '/komga/api/v1/collections?size=100' },
  'POST /komga/api/v1/collections': {
    hides: 'series',
    unknownStatus: 400,
    json: (id: string) => ({ name: 'Made by the matrix', ordered: false, seriesIds: [id] }),
  },
  'GET /komga/api/v1/collections/{id}': {
    hides: 'collection',
    members: (ids) => ({ list: `/komga/api/v1/collections/${ids.mixedCollection}` }),
  },
  'PATCH /komga/api/v1/collections/{id}': { hides: 'collection', json: { name: 'Renamed' } },
  'DELETE /komga/api/v1/collections/{id}': { hides: 'collection' },
  'GET /komga/api/v1/collections/{id}/series': {
    hides: 'collection',
    members: (ids) => ({ list: `/komga/api/v1/collections/${ids.mixedCollection}/series?size=100` }),
  },
  'GET /komga/api/v1/collections/{id}/thumbnail': { hides: 'collection' },
  'GET /komga/api/v1/collections/{id}/thumbnails': { hides: 'collection' },
  'GET /komga/api/v1/readlists': { list: '/komga/api/v1/readlists?size=100' },
  'POST /komga/api/v1/readlists': {
    hides: 'book',
    unknownStatus: 400,
    json: (id: string) => ({ name: 'Made by the matrix', summary: '', ordered: true, bookIds: [id] }),
  },
  'POST /komga/api/v1/readlists/match/comicrack': {
    list: '/komga/api/v1/readlists/match/comicrack',
    method: 'POST',
    body: (ids) => fileForm(ids.cbl, 'matrix.cbl'),
    echoes: ECHOES,
  },
  'GET /komga/api/v1/readlists/{id}': {
    hides: 'readlist',
    members: (ids) => ({ list: `/komga/api/v1/readlists/${ids.mixedReadList}` }),
  },
  'PATCH /komga/api/v1/readlists/{id}': { hides: 'readlist', json: { name: 'Renamed' } },
  'DELETE /komga/api/v1/readlists/{id}': { hides: 'readlist' },
  'GET /komga/api/v1/readlists/{id}/books': {
    hides: 'readlist',
    members: (ids) => ({ list: `/komga/api/v1/readlists/${ids.mixedReadList}/books?size=100` }),
  },
  'GET /komga/api/v1/readlists/{id}/books/{bookId}/next': {
    hides: 'readlist',
    params: (ids) => ({ bookId: ids.hiddenReadListBooks[0] as string }),
  },
  'GET /komga/api/v1/readlists/{id}/books/{bookId}/previous': {
    hides: 'readlist',
    params: (ids) => ({ bookId: ids.hiddenReadListBooks[1] as string }),
  },
  'GET /komga/api/v1/readlists/{id}/thumbnail': { hides: 'readlist' },
  'GET /komga/api/v1/readlists/{id}/thumbnails': { hides: 'readlist' },
  'GET /komga/api/v1/readlists/{id}/read-progress/tachiyomi': { hides: 'readlist' },
  'PUT /komga/api/v1/readlists/{id}/read-progress/tachiyomi': { hides: 'readlist', json: { lastBookRead: 1 } },
  'GET /komga/api/v1/books/{id}/readlists': { hides: 'book' },
  'PATCH /komga/api/v1/books/{id}/metadata': { hides: 'book', json: { summary: 'Edited' } },
  // Komga skips ids it does not find and answers 204: a hidden id is skipped the same way (access-writes.test.ts).
  'PATCH /komga/api/v1/books/metadata': {
    hides: 'book',
    unknownStatus: 204,
    json: (id: string) => ({ [id]: { summary: 'Edited' } }),
  },
  'GET /komga/api/v1/series/{id}/thumbnails': { hides: 'series' },
  'GET /komga/api/v1/series/{id}/thumbnails/{thumbnailId}': { hides: 'series', params: coverParam('thumbnailId') },
  'POST /komga/api/v1/series/{id}/thumbnails': { hides: 'series', body: coverForm },
  'PUT /komga/api/v1/series/{id}/thumbnails/{thumbnailId}/selected': {
    hides: 'series',
    params: coverParam('thumbnailId'),
  },
  'DELETE /komga/api/v1/series/{id}/thumbnails/{thumbnailId}': { hides: 'series', params: coverParam('thumbnailId') },
  'GET /komga/api/v1/books/{id}/thumbnails': { hides: 'book' },
  'GET /komga/api/v1/books/{id}/thumbnails/{thumbnailId}': { hides: 'book', params: coverParam('thumbnailId') },
  'POST /komga/api/v1/books/{id}/thumbnails': { hides: 'book', body: coverForm },
  'PUT /komga/api/v1/books/{id}/thumbnails/{thumbnailId}/selected': {
    hides: 'book',
    params: coverParam('thumbnailId'),
  },
  'DELETE /komga/api/v1/books/{id}/thumbnails/{thumbnailId}': { hides: 'book', params: coverParam('thumbnailId') },
  // Readium (issue 22): the fixture's books are CBZ.
  'GET /komga/api/v1/books/{id}/manifest': { hides: 'book' },
  'GET /komga/api/v1/books/{id}/manifest/divina': { hides: 'book' },
  'GET /komga/api/v1/books/{id}/manifest/epub': { hides: 'book', admin: NOT_EPUB },
  'GET /komga/api/v1/books/{id}/positions': { hides: 'book' },
  'GET /komga/api/v1/books/{id}/resource/*': { hides: 'book', params: () => ({ '*': 'page-1' }), admin: NOT_EPUB },
  'GET /komga/api/v1/books/{id}/progression': { hides: 'book' },
  'PUT /komga/api/v1/books/{id}/progression': { hides: 'book', json: progression },
  'GET /komga/api/v1/libraries': { list: '/komga/api/v1/libraries' },
  'GET /komga/api/v1/libraries/{id}': { hides: 'library' },
  'GET /komga/api/v1/libraries/{id}/thumbnail': { hides: 'library' },
  'GET /komga/api/v1/series': { list: '/komga/api/v1/series?size=100' },
  'GET /komga/api/v1/series/new': { list: '/komga/api/v1/series/new?size=100' },
  'GET /komga/api/v1/series/updated': { list: '/komga/api/v1/series/updated?size=100' },
  'POST /komga/api/v1/series/list': {
    list: '/komga/api/v1/series/list?size=100',
    method: 'POST',
    json: { fullTextSearch: 'zork' },
  },
  'GET /komga/api/v1/series/{id}': { hides: 'series' },
  'GET /komga/api/v1/series/{id}/books': { hides: 'series' },
  'GET /komga/api/v1/series/{id}/collections': { hides: 'series' },
  'GET /komga/api/v1/series/{id}/thumbnail': { hides: 'series' },
  'POST /komga/api/v1/series/{id}/read-progress': { hides: 'series' },
  'DELETE /komga/api/v1/series/{id}/read-progress': { hides: 'series' },
  'GET /komga/api/v1/series/{id}/read-progress/tachiyomi': { hides: 'series' },
  'PUT /komga/api/v1/series/{id}/read-progress/tachiyomi': { hides: 'series', json: { lastBookRead: 1 } },
  'GET /komga/api/v2/series/{id}/read-progress/tachiyomi': { hides: 'series' },
  'PUT /komga/api/v2/series/{id}/read-progress/tachiyomi': { hides: 'series', json: { lastBookNumberSortRead: 1 } },
  'GET /komga/api/v1/books': { list: '/komga/api/v1/books?size=100' },
  'GET /komga/api/v1/books/ondeck': { list: '/komga/api/v1/books/ondeck?size=100' },
  'POST /komga/api/v1/books/list': {
    list: '/komga/api/v1/books/list?size=100',
    method: 'POST',
    json: { fullTextSearch: 'zork' },
  },
  'GET /komga/api/v1/books/{id}': { hides: 'book' },
  'GET /komga/api/v1/books/{id}/file': { hides: 'book' },
  'HEAD /komga/api/v1/books/{id}/file': { hides: 'book' },
  'GET /komga/api/v1/books/{id}/next': { hides: 'book' },
  'GET /komga/api/v1/books/{id}/previous': { hides: 'book', bookIndex: 1 },
  'GET /komga/api/v1/books/{id}/pages': { hides: 'book' },
  'GET /komga/api/v1/books/{id}/pages/{n}': { hides: 'book' },
  'GET /komga/api/v1/books/{id}/pages/{n}/thumbnail': { hides: 'book' },
  'GET /komga/api/v1/books/{id}/thumbnail': { hides: 'book' },
  'PATCH /komga/api/v1/books/{id}/read-progress': { hides: 'book', json: { page: 1 } },
  'DELETE /komga/api/v1/books/{id}/read-progress': { hides: 'book' },
};

// --- the routes ------------------------------------------------------------------------------------------

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** `:id` and `:path{.+}` as the OpenAPI document writes them: `{id}`, `{path}`. */
const normalise = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

function everyRoute(): string[] {
  const app = createApp();
  const document = buildOpenApiDocument(app);
  const routes = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      if (!(item as Record<string, unknown>)[method]) continue;
      const full = path.startsWith('/opds') ? path : `/api/v1${path}`;
      routes.add(`${method.toUpperCase()} ${full}`);
    }
  }
  const notCalled = () => {
    throw new Error('not called');
  };
  const [komga, kobo] = [createKomgaApp(notCalled), createKoboApp(notCalled)];
  for (const route of [...app.routes, ...komga.routes, ...kobo.routes]) {
    if (route.method === 'ALL' || !/^\/(opds|koreader|komga|kobo)\//.test(route.path)) continue;
    routes.add(`${route.method} ${normalise(route.path)}`);
  }
  return [...routes].sort();
}

// --- calling them ----------------------------------------------------------------------------------------

interface Viewer {
  name: string;
  key: string;
  /** Traces (marker words and ids) of what the viewer must not see. */
  hidden: string[];
  /** The most books, series or anything else the viewer may count. */
  maxCount: number;
  /** Ids of hidden items, by the kind of route that takes them. */
  targets: Record<Target, string[]>;
}

interface Answer {
  status: number;
  text: string;
}

async function call(
  key: string,
  method: string,
  route: string,
  init: { json?: unknown; body?: string | FormData | Uint8Array } = {},
) {
  // A Kobo's key is its URL's first segment.
  const path = route.replace('{apiKey}', key);
  const koreader = path.startsWith('/koreader');
  const headers: Record<string, string> = koreader
    ? { 'x-auth-user': key, 'x-auth-key': 'x', accept: 'application/vnd.koreader.v1+json' }
    : { 'X-API-Key': key };
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['Content-Type'] = 'application/json';
  } else if (typeof body === 'string' && body.startsWith('<?xml')) {
    headers['Content-Type'] = 'application/xml';
  } else if (body instanceof Uint8Array) {
    headers['Content-Type'] = 'application/vnd.sqlite3';
  }
  const response = await SELF.fetch(`http://longbox.test${path}`, { method, headers, body, redirect: 'manual' });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = response.headers.get('Content-Type') ?? '';
  const textual = /json|xml|text|html/.test(type) || bytes.length === 0;
  return {
    status: response.status,
    text: textual ? new TextDecoder().decode(bytes) : `<${type} ${bytes.length} bytes>`,
  };
}

/** Where a trace shows: the answer's text, lower-cased (ids are lower-case UUIDs). */
const tracesIn = (answer: Answer, traces: readonly string[]) => {
  const text = answer.text.toLowerCase();
  return traces.filter((trace) => text.includes(trace.toLowerCase()));
};

/** Counts an answer states: JSON fields and XML elements named like a total or a count (not pages). */
function countsIn(answer: Answer): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  const countName = /^(total\w*|numberOf\w*|\w*count|\w*_count|\w*Count)$/i;
  const visit = (value: unknown, key: string) => {
    // Durations (reading statistics' `totalMs`) are times, not counts.
    if (typeof value === 'number' && countName.test(key) && !/page|size|byte|error|skipped|Ms$/i.test(key)) {
      found.push([key, value]);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, key);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, k);
    }
  };
  try {
    visit(JSON.parse(answer.text), '');
  } catch {
    for (const match of answer.text.matchAll(/<(opensearch:totalResults|[\w:]*numberOfItems)>(\d+)</g)) {
      found.push([match[1] as string, Number(match[2])]);
    }
  }
  return found;
}

/** Fills a route's path: `target` for its first parameter, `params` or harmless values for the others. */
function pathOf(route: string, target: string, params: Record<string, string> = {}): string {
  const path = route.slice(route.indexOf(' ') + 1);
  let first = true;
  return path
    .replace(/\{(\w+)\}/g, (_, name: string) => {
      // Kobo's key segment is the caller's own (call() fills it in).
      if (name === 'apiKey') return '{apiKey}';
      if (first) {
        first = false;
        return target;
      }
      if (params[name]) return params[name];
      if (name === 'path') return 'Zork%20New/new.cbz';
      return '1';
    })
    .replace(/\*$/, params['*'] ?? 'series');
}

/** An answer with the id taken out, and the parts that vary from call to call (times). */
const comparable = (answer: Answer, id: string) => ({
  status: answer.status,
  text: answer.text.replaceAll(id, '<id>').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, '<time>'),
});

const unknownTarget = (kind: Target) => (kind === 'hash' ? 'f'.repeat(32) : crypto.randomUUID());

// --- the test --------------------------------------------------------------------------------------------

interface Matrix {
  fixture: AccessFixture;
  adminKey: string;
  viewers: Viewer[];
  ids: MatrixIds;
}

/**
 * The lists (issue 19) and covers (issue 18) the entries read, made by the admin through the API: a collection,
 * a read list and both users' want-to-read queues holding every series and book, a collection and a read list of
 * hidden items only, named after Xsecret (so a list page showing them shows a trace), and an uploaded cover on
 * each hidden series and book.
 */
async function buildLists(
  fixture: AccessFixture,
  hiddenMarkers: Array<keyof AccessFixture['series']>,
  /** Hidden from the narrowed key only: an uploaded cover too. */
  narrowedMarkers: Array<keyof AccessFixture['series']>,
): Promise<MatrixIds> {
  const all = Object.values(fixture.series);
  const hidden = hiddenMarkers.map((m) => fixture.series[m]);
  const auth = fixture.admin;
  const created = async (path: string, json: unknown) => {
    const response = await api(path, { method: 'POST', auth, json });
    expect(response.status, response.text).toBe(201);
    return response.body.id as string;
  };
  const allSeries = all.map((s) => s.seriesId);
  const allBooks = all.flatMap((s) => s.bookIds);
  const hiddenCollectionSeries = hidden.map((s) => s.seriesId);
  const hiddenReadListBooks = hidden.flatMap((s) => s.bookIds);
  // Every series, and the first book of Xteen and of each hidden series: at most as many visible entries as the
  // callers may count (restricted: 3 series + 1 book; narrowed: 2 + 1).
  const firstBooks = [fixture.series.xteen, ...hidden].map((s) => s.bookIds[0] as string);
  for (const seriesId of allSeries) await created('/want-to-read', { seriesId });
  for (const bookId of firstBooks) await created('/want-to-read', { bookId });
  // The restricted user queued them before the restriction (as they may have): written straight into D1.
  const now = new Date().toISOString();
  await db
    .insert(wantToRead)
    .values([
      ...allSeries.map((seriesId, position) => ({ userId: fixture.user.id, seriesId, addedAt: now, position })),
      ...firstBooks.map((bookId, i) => ({ userId: fixture.user.id, bookId, addedAt: now, position: 100 + i })),
    ]);
  const coverOf: Record<string, string> = {};
  for (const s of [...hidden, ...narrowedMarkers.map((m) => fixture.series[m])]) {
    for (const [kind, id] of [
      ['series', s.seriesId],
      ['books', s.bookIds[0] as string],
    ] as const) {
      const upload = await api(`/${kind}/${id}/cover`, { method: 'POST', auth, body: coverForm() });
      expect(upload.status, upload.text).toBe(200);
      coverOf[id] = upload.body.id as string;
    }
  }
  const cblBooks = all
    .map((s) => `<Book Series="Zork ${s.marker[0]?.toUpperCase()}${s.marker.slice(1)}" Number="1" Volume="" Year="" />`)
    .join('');
  return {
    visibleSeries: fixture.series.xteen.seriesId,
    visibleBook: fixture.series.xteen.bookIds[0] as string,
    allSeries,
    allBooks,
    mixedCollection: await created('/collections', { name: 'Mixed Shelf', seriesIds: allSeries }),
    mixedReadList: await created('/readlists', { name: 'Mixed List', bookIds: allBooks }),
    smartBooks: await created('/collections', {
      name: 'Every Book',
      target: 'books',
      condition: { title: { operator: 'isNotNull' } },
    }),
    hiddenCollectionSeries,
    hiddenReadListBooks,
    collection: await created('/collections', { name: 'Zork Xsecret Shelf', seriesIds: hiddenCollectionSeries }),
    readList: await created('/readlists', { name: 'Zork Xsecret List', bookIds: hiddenReadListBooks }),
    coverOf,
    releaseOf: await seedReleases(all.map((s) => s.seriesId)),
    cbl: `<?xml version="1.0"?><ReadingList><Name>Matrix</Name><Books>${cblBooks}</Books></ReadingList>`,
  } as MatrixIds & { collection: string; readList: string };
}

/** One announced MangaUpdates release of each series (as a poll records them), by series id. */
async function seedReleases(seriesIds: string[]): Promise<Record<string, string>> {
  const source = await db
    .select({ id: releaseSources.id })
    .from(releaseSources)
    .where(eq(releaseSources.provider, 'mangaupdates'))
    .get();
  const now = new Date().toISOString();
  const rows = seriesIds.map((seriesId, i) => ({
    id: crypto.randomUUID(),
    seriesId,
    sourceId: source?.id as string,
    externalReleaseId: `mangaupdates:${i + 1}`,
    chapterStart: 99,
    chapter: 99,
    language: 'en',
    payloadUrl: 'https://www.mangaupdates.com/series/6z1uqw7',
    confidence: 1,
    observedAt: now,
    createdAt: now,
  }));
  await db.insert(releaseLedger).values(rows);
  return Object.fromEntries(rows.map((row) => [row.seriesId, row.id]));
}

/** The fixture, progress on every book, a duplicate group, and the two restricted callers. */
async function buildMatrix(): Promise<Matrix> {
  const fixture = await buildAccessFixture();
  const adminKey = (await createApiKey(fixture.admin, { name: 'admin' })).key;
  // Progress of both readers (made before the restriction, as it may be): the first book of each series read,
  // the second started in Xteen and Xsecret, so on-deck (the next unread book) and in-progress lists both
  // have hidden rows.
  for (const userId of [fixture.adminId, fixture.user.id]) {
    for (const s of Object.values(fixture.series)) {
      const [first, second] = s.bookIds;
      if (first) await seedProgress(userId, first, { completed: true });
      if (second && ['xteen', 'xsecret'].includes(s.marker)) await seedProgress(userId, second, { currentPage: 1 });
      // A sitting on every book, so the reading statistics and their export have hidden rows to leave out.
      for (const bookId of s.bookIds) {
        await db.insert(readingSessions).values({
          id: crypto.randomUUID(),
          userId,
          bookId,
          deviceId: 'ua:matrix',
          deviceName: 'Matrix',
          startedAt: new Date(Date.now() - 86_400_000).toISOString(),
          endedAt: new Date(Date.now() - 86_000_000).toISOString(),
          inferredMs: 60_000,
          pagesRead: 1,
        });
      }
    }
  }
  const duplicates = await api('/duplicates/scan', { method: 'POST', auth: fixture.admin });
  expect(duplicates.status).toBe(202);
  for (let tries = 0; ; tries++) {
    const groups = await api('/duplicates', { auth: fixture.admin });
    if (groups.body.data?.length > 0) break;
    if (tries > 200) throw new Error(`no duplicate group: ${groups.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const group = (await api('/duplicates', { auth: fixture.admin })).body.data[0];
  const s = fixture.series;
  const ids = (await buildLists(fixture, ['xadult', 'xsecret', 'xbeta'], ['xgamma'])) as MatrixIds & {
    collection: string;
    readList: string;
  };
  const targets = (markers: Array<keyof AccessFixture['series']>, libraries: string[], tasks: string[]) => ({
    collection: [ids.collection],
    readlist: [ids.readList],
    book: markers.map((m) => s[m].bookIds[0] as string),
    series: markers.map((m) => s[m].seriesId),
    library: libraries,
    task: tasks,
    duplicate: [group.id as string],
    hash: markers.map((m) => s[m].readerHashes[0] as string),
    release: markers.map((m) => ids.releaseOf[s[m].seriesId] as string),
  });
  const traces = (markers: Array<keyof AccessFixture['series']>) => tracesOf(fixture, markers);
  const viewers: Viewer[] = [
    {
      name: 'restricted user (full key)',
      key: fixture.userKey,
      hidden: [...traces(['xadult', 'xsecret', 'xbeta']), fixture.libraries.beta],
      // Xteen 2 + Xunrated 1 + Xgamma 2 books.
      maxCount: 5,
      targets: targets(['xadult', 'xsecret', 'xbeta'], [fixture.libraries.beta], [fixture.betaTaskId]),
    },
    {
      name: 'narrowed key',
      key: fixture.narrowKey,
      hidden: [...traces(['xadult', 'xsecret', 'xbeta', 'xgamma']), fixture.libraries.beta, fixture.libraries.gamma],
      maxCount: 3,
      targets: targets(['xgamma', 'xbeta'], [fixture.libraries.gamma], [fixture.gammaTaskId]),
    },
  ];
  return { fixture, adminKey, viewers, ids };
}

describe('the access matrix (issue 17)', () => {
  it('has an entry for every route, and none for a route that is gone', () => {
    const routes = everyRoute();
    expect(routes.length).toBeGreaterThan(150);
    const missing = routes.filter((route) => !(route in ENTRIES));
    const stale = Object.keys(ENTRIES).filter((route) => !routes.includes(route));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  // One test: the storage is reset before each (test/support/apply-migrations.ts), and the fixture is built once.
  it('hides every hidden item on every route: nothing in lists, searches, feeds and facets; a hidden id answers as an unknown one', async () => {
    const matrix = await buildMatrix();
    expect({ lists: await listFailures(matrix), ids: await idFailures(matrix) }).toEqual({ lists: [], ids: [] });
  }, 300_000);
});

/** Lists, searches, feeds and facets: nothing hidden shown or counted. */
async function listFailures({ fixture, adminKey, viewers, ids }: Matrix): Promise<string[]> {
  const failures: string[] = [];
  const lists = Object.entries(ENTRIES).flatMap(([route, entry]): Array<[string, ListEntry]> => {
    if ('list' in entry) return [[route, entry]];
    if ('hides' in entry && entry.members) return [[route, entry.members(ids)]];
    return [];
  });
  for (const [route, entry] of lists) {
    const method = entry.method ?? 'GET';
    // Built for each call: a form is read once, and a bulk edit changes something each time.
    const init = () => ({
      json: typeof entry.json === 'function' ? entry.json(ids) : entry.json,
      body: entry.body?.(ids),
    });
    const admin = await call(adminKey, method, entry.list, init());
    const markers = new Set(Object.keys(fixture.series));
    const hiddenOf = (viewer: Viewer) =>
      entry.tokens?.hidden ?? (entry.echoes ? viewer.hidden.filter((t) => !markers.has(t)) : viewer.hidden);
    if (admin.status !== 200) failures.push(`${route}: admin got ${admin.status} ${admin.text.slice(0, 200)}`);
    else if (!entry.adminShowsNothing && tracesIn(admin, hiddenOf(viewers[0] as Viewer)).length === 0) {
      failures.push(`${route}: the admin's answer shows no hidden item, so the check proves nothing`);
    }
    for (const viewer of viewers) {
      const answer = await call(viewer.key, method, entry.list, init());
      if (answer.status !== 200 && answer.status !== 403) {
        failures.push(`${route} as ${viewer.name}: ${answer.status} ${answer.text.slice(0, 200)}`);
        continue;
      }
      const leaked = tracesIn(answer, hiddenOf(viewer));
      if (leaked.length > 0) failures.push(`${route} as ${viewer.name} shows ${leaked.join(', ')}`);
      const counts = countsIn(answer).filter(([, n]) => n > viewer.maxCount);
      if (counts.length > 0) failures.push(`${route} as ${viewer.name} counts ${JSON.stringify(counts)}`);
    }
  }
  return failures;
}

/** Routes taking an id: a hidden one answers exactly as an unknown one; the admin's read answers it. */
async function idFailures({ fixture, adminKey, viewers, ids }: Matrix): Promise<string[]> {
  const failures: string[] = [];
  for (const [route, entry] of Object.entries(ENTRIES)) {
    if (!('hides' in entry)) continue;
    const method = route.slice(0, route.indexOf(' '));
    const bodyFor = (id: string) => ({
      json: typeof entry.json === 'function' ? entry.json(id, ids) : entry.json,
      body: entry.file ? entry.file(id) : typeof entry.body === 'function' ? entry.body() : entry.body,
    });
    // The other parameters come from the hidden id, for the unknown id's call too.
    const request = (key: string, id: string, hiddenId: string) =>
      call(key, method, pathOf(route, id, entry.params?.(ids, hiddenId)) + (entry.query ?? ''), bodyFor(id));
    for (const viewer of viewers) {
      for (const hiddenId of viewer.targets[entry.hides]) {
        const id =
          entry.bookIndex !== undefined && entry.hides === 'book'
            ? (Object.values(fixture.series).find((s) => s.bookIds[0] === hiddenId)?.bookIds[entry.bookIndex] ??
              hiddenId)
            : hiddenId;
        if (method === 'GET') {
          const admin = await request(adminKey, id, id);
          const ok = entry.admin ? admin.status === entry.admin.status : admin.status < 400;
          if (!ok) failures.push(`${route}: admin got ${admin.status} for ${id}: ${admin.text.slice(0, 200)}`);
        }
        const unknownId = unknownTarget(entry.hides);
        const [hidden, unknown] = [await request(viewer.key, id, id), await request(viewer.key, unknownId, id)];
        const expected = entry.forbidden ? 403 : (entry.unknownStatus ?? 404);
        if (unknown.status !== expected) {
          failures.push(
            `${route} as ${viewer.name}: an unknown id got ${unknown.status}, not ${expected}: ${unknown.text.slice(0, 200)}`,
          );
        }
        const [a, b] = [comparable(hidden, id), comparable(unknown, unknownId)];
        if (a.status !== b.status || a.text !== b.text) {
          failures.push(
            `${route} as ${viewer.name}: hidden ${a.status} ${a.text.slice(0, 160)} ≠ unknown ${b.status} ${b.text.slice(0, 160)}`,
          );
        }
      }
    }
  }
  return failures;
}

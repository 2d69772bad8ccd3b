/**
 * The catalog's feeds, the same in both OPDS versions (DECISIONS.md §Reader apps): each path, the
 * permission its API twin needs, and the catalog call that builds it. Each version's router only says
 * how a feed is written (Atom for 1.2, JSON for 2.0).
 */
import type { Context } from 'hono';
import { COLLECTIONS_READ, PROGRESS_READ, READ_LISTS_READ, type Requirement } from '../auth/permissions';
import type { AppEnv } from '../env';
import { badRequest } from '../lib/errors';
import { toPageRequest } from '../lib/pagination';
import type { CatalogFeed } from './catalog-model';
import { OPDS_PAGE_SIZE } from './opds-catalog.service';
import { requestViewer as viewer } from '../http/progress-actor';
import { idParam } from './reader-media';

export interface CatalogFeedRoute {
  path: string;
  /** undefined: any signed-in caller. */
  need: Requirement | undefined;
  build: (c: Context<AppEnv>) => Promise<CatalogFeed>;
}

export const pageOf = (c: Context<AppEnv>) =>
  toPageRequest({ page: c.req.query('page'), pageSize: c.req.query('pageSize') ?? String(OPDS_PAGE_SIZE) });
const catalog = (c: Context<AppEnv>) => c.get('services').opdsCatalog;

export const CATALOG_FEED_ROUTES: readonly CatalogFeedRoute[] = [
  { path: '/catalog', need: undefined, build: async (c) => catalog(c).root() },
  { path: '/libraries', need: 'LibrariesRead', build: async (c) => catalog(c).libraries(viewer(c)) },
  {
    path: '/libraries/:id',
    need: 'SeriesRead',
    build: async (c) => catalog(c).library(viewer(c), idParam(c), pageOf(c)),
  },
  {
    path: '/libraries/:id/books',
    need: 'BooksRead',
    build: async (c) => catalog(c).libraryBooks(viewer(c), idParam(c), pageOf(c)),
  },
  { path: '/series', need: 'SeriesRead', build: async (c) => catalog(c).allSeries(viewer(c), pageOf(c)) },
  { path: '/series/:id', need: 'BooksRead', build: async (c) => catalog(c).series(viewer(c), idParam(c), pageOf(c)) },
  { path: '/recently-added', need: 'BooksRead', build: async (c) => catalog(c).recentlyAdded(viewer(c), pageOf(c)) },
  {
    path: '/keep-reading',
    need: PROGRESS_READ,
    build: async (c) => catalog(c).keepReading(viewer(c), pageOf(c)),
  },
  { path: '/on-deck', need: 'BooksRead', build: async (c) => catalog(c).onDeck(viewer(c), pageOf(c)) },
  { path: '/want-to-read', need: PROGRESS_READ, build: async (c) => catalog(c).wantToRead(viewer(c), pageOf(c)) },
  { path: '/collections', need: COLLECTIONS_READ, build: async (c) => catalog(c).collections(viewer(c), pageOf(c)) },
  {
    path: '/collections/:id',
    need: COLLECTIONS_READ,
    build: async (c) => catalog(c).collection(viewer(c), idParam(c), pageOf(c)),
  },
  { path: '/readlists', need: READ_LISTS_READ, build: async (c) => catalog(c).readLists(viewer(c), pageOf(c)) },
  {
    path: '/readlists/:id',
    need: READ_LISTS_READ,
    build: async (c) => catalog(c).readList(viewer(c), idParam(c), pageOf(c)),
  },
];

/** The search terms; `q` too: some OPDS 1 apps fill the OpenSearch template's parameter under that name. */
function searchTerms(c: Context<AppEnv>): string {
  const query = c.req.query('query') ?? c.req.query('q');
  if (!query?.trim()) throw badRequest(`Search needs a query: ${c.req.path}?query=<terms>`);
  return query;
}

/**
 * Search differs by version: OPDS 2.0 answers series (navigation) and books (publications) in one
 * document; an OPDS 1.2 feed cannot page two lists, so its result leads to a paged feed of each
 * (OpdsCatalogService.searchSections).
 */
export const OPDS2_SEARCH_ROUTES: readonly CatalogFeedRoute[] = [
  {
    path: '/search',
    need: 'BooksRead',
    build: async (c) => catalog(c).search(viewer(c), searchTerms(c), pageOf(c)),
  },
];

export const OPDS1_SEARCH_ROUTES: readonly CatalogFeedRoute[] = [
  { path: '/search', need: 'BooksRead', build: async (c) => catalog(c).searchSections(viewer(c), searchTerms(c)) },
  {
    path: '/search/series',
    // As the search it comes from (which shows its count).
    need: 'BooksRead',
    build: async (c) => catalog(c).searchSeries(viewer(c), searchTerms(c), pageOf(c)),
  },
  {
    path: '/search/books',
    need: 'BooksRead',
    build: async (c) => catalog(c).searchBooks(viewer(c), searchTerms(c), pageOf(c)),
  },
];

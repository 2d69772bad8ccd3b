/**
 * OPDS 1.2 at /opds/v1.2 (DECISIONS.md §Reader apps; API.md §1): the catalog's Atom feeds, the
 * OpenSearch description, page streaming (OPDS-PSE 1.2) and the covers and files the feeds link to.
 * Feed errors are Atom feeds with the error's status; page, cover and file errors keep the API's
 * envelope, as their API twins do.
 */
import { type Context, Hono } from 'hono';
import type { Requirement } from '../../auth/permissions';
import type { AppEnv } from '../../env';
import { AppError, badRequest } from '../../lib/errors';
import { nowIso } from '../../lib/ids';
import { toPageRequest } from '../../lib/pagination';
import { handleError } from '../../middleware/error-handler';
import { readerAppAuth } from '../../middleware/reader-app-auth';
import { progressActor } from '../../routes/progress/actor';
import { sendMedia } from '../../routes/pages/send-media';
import type { CatalogFeed } from '../catalog-model';
import { OPDS_PAGE_SIZE } from '../opds-catalog.service';
import { advanceStreamedProgress } from '../streamed-progress';
import { idParam, isReaderMediaPath, mountReaderMedia, servePage } from '../reader-media';
import { ACQUISITION_TYPE, AtomFeedWriter, NAVIGATION_TYPE, OPENSEARCH_TYPE } from './atom-feed';

const writer = (c: Context<AppEnv>) => new AtomFeedWriter(new URL(c.req.url).origin);
const pageOf = (c: Context<AppEnv>) =>
  toPageRequest({ page: c.req.query('page'), pageSize: c.req.query('pageSize') ?? String(OPDS_PAGE_SIZE) });
const userOf = (c: Context<AppEnv>) => c.get('principal').user.id;

function atom(c: Context<AppEnv>, feed: CatalogFeed) {
  const type = feed.kind === 'navigation' ? NAVIGATION_TYPE : ACQUISITION_TYPE;
  return c.body(writer(c).feed(feed), 200, { 'Content-Type': `${type};charset=utf-8` });
}

export const opds1Router = new Hono<AppEnv>();

opds1Router.onError((error, c) => {
  if (isReaderMediaPath(c.req.path) || !(error instanceof AppError)) return handleError(error, c);
  return c.body(writer(c).error(error.message, nowIso()), error.status, {
    ...error.headers,
    'Content-Type': 'application/atom+xml;charset=utf-8',
  });
});

const feed = (path: string, need: Requirement | undefined, build: (c: Context<AppEnv>) => Promise<CatalogFeed>) =>
  opds1Router.get(path, readerAppAuth(need), async (c) => atom(c, await build(c)));

const catalog = (c: Context<AppEnv>) => c.get('services').opdsCatalog;

feed('/catalog', undefined, async (c) => catalog(c).root());
feed('/libraries', 'LibrariesRead', async (c) => catalog(c).libraries());
feed('/libraries/:id', 'SeriesRead', async (c) => catalog(c).library(userOf(c), idParam(c), pageOf(c)));
feed('/libraries/:id/books', 'BooksRead', async (c) => catalog(c).libraryBooks(userOf(c), idParam(c), pageOf(c)));
feed('/series', 'SeriesRead', async (c) => catalog(c).allSeries(userOf(c), pageOf(c)));
feed('/series/:id', 'BooksRead', async (c) => catalog(c).series(userOf(c), idParam(c), pageOf(c)));
feed('/recently-added', 'BooksRead', async (c) => catalog(c).recentlyAdded(userOf(c), pageOf(c)));
feed('/keep-reading', ['ProgressRead', 'BooksRead'], async (c) => catalog(c).keepReading(userOf(c), pageOf(c)));
feed('/on-deck', 'BooksRead', async (c) => catalog(c).onDeck(userOf(c), pageOf(c)));
feed('/search', 'BooksRead', async (c) => {
  const query = c.req.query('query') ?? c.req.query('q');
  if (!query?.trim()) throw badRequest('Search needs a query: /opds/v1.2/search?query=<terms>');
  return catalog(c).search(userOf(c), query, pageOf(c));
});

opds1Router.get('/opensearch.xml', readerAppAuth(), (c) =>
  c.body(writer(c).openSearch(), 200, { 'Content-Type': `${OPENSEARCH_TYPE};charset=utf-8` }),
);

/**
 * OPDS-PSE page: `{pageNumber}` counts from 0 (page n+1 of the book), `{maxWidth}` arrives as `width`.
 * A page past the end is a 400 (the link told the app how many there are). A served page moves the
 * user's progress forward (streamed-progress.ts).
 */
opds1Router.get('/books/:id/pages/:pageNumber', readerAppAuth('PagesRead'), async (c) => {
  const bookId = idParam(c);
  const raw = c.req.param('pageNumber');
  if (!/^[0-9]+$/.test(raw)) {
    throw badRequest('pageNumber must be a whole number counted from 0', [
      { path: 'pageNumber', message: 'must be a whole number counted from 0' },
    ]);
  }
  const book = await c.get('services').readProgress.bookPaging(bookId);
  const index = Number(raw);
  if (index >= book.pageCount) {
    throw badRequest(`Page ${raw} is past the end: the book has ${book.pageCount} pages, numbered from 0`, [
      { path: 'pageNumber', message: `must be between 0 and ${Math.max(book.pageCount - 1, 0)}` },
    ]);
  }
  const result = await servePage(c, bookId, index + 1);
  await advanceStreamedProgress(c.get('services'), c.get('principal'), progressActor(c), bookId, index + 1, book);
  return sendMedia(c, result);
});

mountReaderMedia(opds1Router);

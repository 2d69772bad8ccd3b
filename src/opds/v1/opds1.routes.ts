/**
 * OPDS 1.2 at /opds/v1.2 (DECISIONS.md §Reader apps; API.md §1): the catalog's Atom feeds, the
 * OpenSearch description, page streaming (OPDS-PSE 1.2) and the covers and files the feeds link to.
 * Feed errors are Atom feeds with the error's status; page, cover and file errors keep the API's
 * envelope, as their API twins do.
 */
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../env';
import { AppError, badRequest } from '../../lib/errors';
import { nowIso } from '../../lib/ids';
import { handleError } from '../../middleware/error-handler';
import { readerAppAuth } from '../../middleware/reader-app-auth';
import { progressActor } from '../../http/progress-actor';
import { sendMedia } from '../../http/send-media';
import { CATALOG_FEED_ROUTES, OPDS1_SEARCH_ROUTES } from '../catalog-feed-routes';
import type { CatalogFeed } from '../catalog-model';
import { recordStreamedPage } from '../streamed-progress';
import { idParam, isReaderMediaPath, mountReaderMedia, serveStreamedPage } from '../reader-media';
import { ACQUISITION_TYPE, AtomFeedWriter, NAVIGATION_TYPE, OPENSEARCH_TYPE } from './atom-feed';

const writer = (c: Context<AppEnv>) => new AtomFeedWriter(new URL(c.req.url).origin);

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

for (const route of [...CATALOG_FEED_ROUTES, ...OPDS1_SEARCH_ROUTES]) {
  opds1Router.get(route.path, readerAppAuth(route.need), async (c) => atom(c, await route.build(c)));
}

opds1Router.get('/opensearch.xml', readerAppAuth(), (c) =>
  c.body(writer(c).openSearch(), 200, { 'Content-Type': `${OPENSEARCH_TYPE};charset=utf-8` }),
);

/**
 * OPDS-PSE page: `{pageNumber}` counts from 0 (page n+1 of the book), `{maxWidth}` arrives as `width`.
 * A page past the end is a 400 (the link told the app how many there are). A served page may move the
 * user's progress, after it is sent (streamed-progress.ts).
 */
// The progress it moves is work after the answer, held until the credential check succeeds and dropped if it
// does not (middleware/caller.ts), so the page may be read beside the check like any other.
opds1Router.get('/books/:id/pages/:pageNumber', readerAppAuth('PagesRead'), async (c) => {
  const bookId = idParam(c);
  const raw = c.req.param('pageNumber');
  if (!/^[0-9]+$/.test(raw)) {
    throw badRequest('pageNumber must be a whole number counted from 0', [
      { path: 'pageNumber', message: 'must be a whole number counted from 0' },
    ]);
  }
  const index = Number(raw);
  // One page-table read gives both the page count the index is checked against and the page itself.
  const { media, paging } = await serveStreamedPage(c, bookId, index + 1, (book) => {
    if (index >= book.pageCount) {
      throw badRequest(`Page ${raw} is past the end: the book has ${book.pageCount} pages, numbered from 0`, [
        { path: 'pageNumber', message: `must be between 0 and ${Math.max(book.pageCount - 1, 0)}` },
      ]);
    }
  });
  recordStreamedPage(c.get('services'), c.get('principal'), progressActor(c), paging, index + 1);
  return sendMedia(c, media);
});

mountReaderMedia(opds1Router);

/**
 * OPDS 2.0 at /opds/v2.0 (DECISIONS.md §Reader apps; issue 9 point 2): JSON feeds, publication
 * documents, DiViNa manifests, the public authentication document, the Readium progression API, and
 * the pages, covers and files they link to. A 401 carries the Basic challenge, a Link to the
 * authentication document and the document itself (Thorium starts its login from it); other feed
 * errors are problem documents; page, cover and file errors keep the API's envelope.
 */
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PROGRESS_READ, PROGRESS_WRITE } from '../../auth/permissions';
import type { AppEnv } from '../../env';
import { AppError, badRequest, issuesToDetails, notFound } from '../../lib/errors';
import { handleError } from '../../middleware/error-handler';
import { readerAppAuth } from '../../middleware/reader-app-auth';
import { progressActor, requestViewer } from '../../http/progress-actor';
import { sendMedia } from '../../http/send-media';
import { CATALOG_FEED_ROUTES, OPDS2_SEARCH_ROUTES } from '../catalog-feed-routes';
import { hasImagePages } from '../page-streaming';
import { idParam, isReaderMediaPath, mountReaderMedia, servePage } from '../reader-media';
import {
  AUTH_DOCUMENT_REL,
  AUTH_DOCUMENT_TYPE,
  DIVINA_TYPE,
  OPDS2_TYPE,
  Opds2Writer,
  PROGRESSION_TYPE,
  PUBLICATION_TYPE,
} from './opds2-documents';
import { ProgressionBodySchema } from './progression.schema';
import { putProgression } from './progression.service';
import { isPlaceholderFormat, placeholderEtag, placeholderPng } from '../../pages/placeholder-png';

const MAX_PROGRESSION_BYTES = 64 * 1024;

const writer = (c: Context<AppEnv>) => new Opds2Writer(new URL(c.req.url).origin);
const catalog = (c: Context<AppEnv>) => c.get('services').opdsCatalog;
const json = (c: Context<AppEnv>, body: unknown, type: string, status: 200 | 401 = 200) =>
  c.body(JSON.stringify(body), status, { 'Content-Type': type });

export const opds2Router = new Hono<AppEnv>();

opds2Router.onError((error, c) => {
  if (!(error instanceof AppError)) return handleError(error, c);
  const w = writer(c);
  if (error.kind === 'Unauthorized') {
    return c.body(JSON.stringify(w.authDocument()), 401, {
      ...error.headers,
      'Content-Type': AUTH_DOCUMENT_TYPE,
      Link: `<${w.url('auth')}>; rel="${AUTH_DOCUMENT_REL}"; type="${AUTH_DOCUMENT_TYPE}"`,
    });
  }
  if (isReaderMediaPath(c.req.path)) return handleError(error, c);
  return c.body(JSON.stringify(w.problem(error.status, error.kind, error.message)), error.status, {
    ...error.headers,
    'Content-Type': 'application/problem+json',
  });
});

// Public: an app reads it to learn how to sign in.
opds2Router.get('/auth', (c) => json(c, writer(c).authDocument(), AUTH_DOCUMENT_TYPE));

/**
 * The cover of a publication without one (DECISIONS.md §Reader apps): a generated PNG, the same for every
 * book of a kind, so it is cached for a day and revalidated by its ETag.
 */
opds2Router.get('/placeholders/:format', readerAppAuth(), async (c) => {
  const format = c.req.param('format');
  if (!isPlaceholderFormat(format)) throw notFound(`Placeholder ${format}`);
  const etag = placeholderEtag(format);
  const headers = { ETag: etag, 'Cache-Control': 'private, max-age=86400' };
  if (c.req.header('If-None-Match') === etag) return c.body(null, 304, headers);
  return c.body(await placeholderPng(format), 200, { ...headers, 'Content-Type': 'image/png' });
});

for (const route of [...CATALOG_FEED_ROUTES, ...OPDS2_SEARCH_ROUTES]) {
  opds2Router.get(route.path, readerAppAuth(route.need), async (c) =>
    json(c, writer(c).feed(await route.build(c)), OPDS2_TYPE),
  );
}

opds2Router.get('/books/:id', readerAppAuth('BooksRead'), async (c) =>
  json(c, writer(c).publication(await catalog(c).publication(requestViewer(c), idParam(c))), PUBLICATION_TYPE),
);

opds2Router.get('/books/:id/manifest', readerAppAuth('PagesRead'), async (c) => {
  const id = idParam(c);
  // The page list is read beside the publication (one round trip): it answers only once the book is known to
  // have page images, so its own errors never stand in for the publication's.
  const [publication, pages] = await Promise.allSettled([
    catalog(c).publication(requestViewer(c), id),
    c.get('services').pages.list(requestViewer(c), id, new URL(c.req.url).origin),
  ]);
  if (publication.status === 'rejected') throw publication.reason;
  if (!hasImagePages(publication.value.book, publication.value.extras)) {
    throw new AppError(
      'UnprocessableEntity',
      'This book has no page images (a reflowable EPUB, or its analysis failed): open its file instead',
    );
  }
  if (pages.status === 'rejected') throw pages.reason;
  return json(c, writer(c).divina(publication.value, pages.value), DIVINA_TYPE);
});

/** A page of a DiViNa manifest (1-based, like the API): reading it does not move progress, the app PUTs progression. */
opds2Router.get('/books/:id/pages/:pageNumber', readerAppAuth('PagesRead'), async (c) => {
  const raw = c.req.param('pageNumber');
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) {
    throw badRequest('pageNumber must be a whole number counted from 1', [
      { path: 'pageNumber', message: 'must be a whole number counted from 1' },
    ]);
  }
  return sendMedia(c, await servePage(c, idParam(c), Number(raw)));
});

opds2Router.get('/books/:id/progression', readerAppAuth(PROGRESS_READ), async (c) => {
  const bookId = idParam(c);
  const viewer = requestViewer(c);
  const progress = c.get('services').readProgress;
  const record = await progress.find(viewer, await progress.bookPaging(viewer, bookId));
  if (!record) return c.body(null, 204);
  const publication = await catalog(c).publication(viewer, bookId);
  const imagePages = hasImagePages(publication.book, publication.extras);
  return json(
    c,
    writer(c).progression(bookId, record, { pageCount: publication.book.pageCount, imagePages }),
    PROGRESSION_TYPE,
  );
});

opds2Router.put(
  '/books/:id/progression',
  readerAppAuth(PROGRESS_WRITE),
  bodyLimit({
    maxSize: MAX_PROGRESSION_BYTES,
    onError: () => {
      throw new AppError('PayloadTooLarge', `A progression is at most ${MAX_PROGRESSION_BYTES} bytes`);
    },
  }),
  async (c) => {
    const bookId = idParam(c);
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw badRequest('The body must be a JSON progression document');
    }
    const parsed = ProgressionBodySchema.safeParse(raw);
    if (!parsed.success) {
      const details = issuesToDetails(parsed.error.issues);
      throw badRequest(`Invalid progression: ${details[0]?.path}: ${details[0]?.message}`, details);
    }
    await putProgression(c.get('services').readProgress, progressActor(c), bookId, parsed.data);
    return c.body(null, 204);
  },
);

mountReaderMedia(opds2Router);

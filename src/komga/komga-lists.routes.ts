/**
 * Komga's collection and read-list endpoints (src/komga/komga-lists.ts; the calls Mihon and Komelia make are
 * test/support/clients/komga-lists.ts). Thin handlers: Komga's paging and query lists in, Komga's DTOs out.
 */
import { COLLECTIONS_READ, PROGRESS_WRITE, READ_LISTS_READ } from '../auth/permissions';
import { progressActor, requestViewer } from '../http/progress-actor';
import { readUploadedFile } from '../http/uploaded-file';
import { CBL_MAX_BYTES } from '../lists/cbl';
import {
  jsonBody,
  type KomgaApp,
  type KomgaContext,
  komgaOf,
  need,
  pagingOf,
  queryValues,
  sendMedia,
} from './komga-http';
import {
  CollectionCreationSchema,
  CollectionUpdateSchema,
  KomgaLists,
  ReadListCreationSchema,
  ReadListUpdateSchema,
  TachiyomiUpdateSchema,
} from './komga-lists';

const listsOf = (c: KomgaContext) => new KomgaLists(c.get('services'), komgaOf(c));

/**
 * A query list as Spring binds it: repeated, comma-separated, or joined with ", " as Komelia's client joins
 * (Kotlin's `joinToString()`); blanks dropped.
 */
export const queryList = (c: KomgaContext, name: string) =>
  queryValues(c)(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);

/** The list filters Komga's list endpoints take: `search` and `library_id`. */
const listQuery = (c: KomgaContext) => {
  const libraryIds = queryList(c, 'library_id');
  const search = queryValues(c)('search')[0]?.trim();
  return { search: search || undefined, libraryIds: libraryIds.length > 0 ? libraryIds : undefined };
};

export function registerListRoutes(app: KomgaApp) {
  // ---- collections ----
  registerListBasics(app, {
    path: 'collections',
    service: 'collections',
    read: COLLECTIONS_READ,
    del: 'CollectionsDelete',
  });
  app.get('/api/v1/collections', need(COLLECTIONS_READ), async (c) =>
    c.json(await listsOf(c).collections(requestViewer(c), pagingOf(c), listQuery(c))),
  );
  app.post('/api/v1/collections', need('CollectionsWrite'), async (c) =>
    c.json(await listsOf(c).createCollection(requestViewer(c), await jsonBody(c, CollectionCreationSchema))),
  );
  app.get('/api/v1/collections/:id', need(COLLECTIONS_READ), async (c) =>
    c.json(await listsOf(c).collection(requestViewer(c), c.req.param('id'))),
  );
  app.patch('/api/v1/collections/:id', need('CollectionsWrite'), async (c) => {
    await listsOf(c).updateCollection(requestViewer(c), c.req.param('id'), await jsonBody(c, CollectionUpdateSchema));
    return c.body(null, 204);
  });
  app.get('/api/v1/collections/:id/series', need(COLLECTIONS_READ), async (c) =>
    c.json(await listsOf(c).collectionSeries(requestViewer(c), c.req.param('id'), pagingOf(c))),
  );
  app.get('/api/v1/series/:id/collections', need(COLLECTIONS_READ), async (c) =>
    c.json(await listsOf(c).collectionsOfSeries(requestViewer(c), c.req.param('id'))),
  );

  // ---- read lists ----
  registerListBasics(app, { path: 'readlists', service: 'readLists', read: READ_LISTS_READ, del: 'ReadListsDelete' });
  app.get('/api/v1/readlists', need(READ_LISTS_READ), async (c) =>
    c.json(await listsOf(c).readLists(requestViewer(c), pagingOf(c), listQuery(c))),
  );
  app.post('/api/v1/readlists', need('ReadListsWrite'), async (c) =>
    c.json(await listsOf(c).createReadList(requestViewer(c), await jsonBody(c, ReadListCreationSchema))),
  );
  app.post('/api/v1/readlists/match/comicrack', need('ReadListsWrite'), async (c) => {
    const bytes = await readUploadedFile(c, CBL_MAX_BYTES);
    return c.json(await listsOf(c).matchComicRack(requestViewer(c), bytes));
  });
  app.get('/api/v1/readlists/:id', need(READ_LISTS_READ), async (c) =>
    c.json(await listsOf(c).readList(requestViewer(c), c.req.param('id'))),
  );
  app.patch('/api/v1/readlists/:id', need('ReadListsWrite'), async (c) => {
    await listsOf(c).updateReadList(requestViewer(c), c.req.param('id'), await jsonBody(c, ReadListUpdateSchema));
    return c.body(null, 204);
  });
  app.get('/api/v1/readlists/:id/books', need(READ_LISTS_READ), async (c) =>
    c.json(await listsOf(c).readListBooks(requestViewer(c), c.req.param('id'), pagingOf(c))),
  );
  for (const [direction, step] of [
    ['next', 1],
    ['previous', -1],
  ] as const) {
    app.get(`/api/v1/readlists/:id/books/:bookId/${direction}`, need(READ_LISTS_READ), async (c) =>
      c.json(await listsOf(c).sibling(requestViewer(c), c.req.param('id'), c.req.param('bookId'), step)),
    );
  }
  app.get('/api/v1/readlists/:id/read-progress/tachiyomi', need(READ_LISTS_READ), async (c) =>
    c.json(await listsOf(c).tachiyomiProgress(requestViewer(c), c.req.param('id'))),
  );
  app.put('/api/v1/readlists/:id/read-progress/tachiyomi', need(PROGRESS_WRITE), async (c) => {
    const { lastBookRead } = await jsonBody(c, TachiyomiUpdateSchema);
    await listsOf(c).markFirstRead(progressActor(c), c.req.param('id'), lastBookRead);
    return c.body(null, 204);
  });
  app.get('/api/v1/books/:id/readlists', need(READ_LISTS_READ), async (c) =>
    c.json(await listsOf(c).readListsOfBook(requestViewer(c), c.req.param('id'))),
  );
}

/** What a collection and a read list do alike in Komga: delete, and a cover made from the first visible member. */
function registerListBasics(
  app: KomgaApp,
  list: {
    path: 'collections' | 'readlists';
    service: 'collections' | 'readLists';
    read: Parameters<typeof need>[0];
    del: Parameters<typeof need>[0];
  },
) {
  app.delete(`/api/v1/${list.path}/:id`, need(list.del), async (c) => {
    await c.get('services')[list.service].delete(requestViewer(c), c.req.param('id'));
    return c.body(null, 204);
  });
  app.get(`/api/v1/${list.path}/:id/thumbnail`, need(list.read), async (c) => {
    const viewer = requestViewer(c);
    const services = c.get('services');
    const first = await services[list.service].cover(viewer, c.req.param('id'));
    return sendMedia(c, await services.thumbnails.forListMember(viewer, first, c.req.header('If-None-Match')));
  });
  // Longbox makes list covers from their members: there are no uploaded posters to list.
  app.get(`/api/v1/${list.path}/:id/thumbnails`, need(list.read), async (c) => {
    await c.get('services')[list.service].row(requestViewer(c), c.req.param('id'));
    return c.json([]);
  });
}

/**
 * Komga's collection and read-list endpoints (src/komga/komga-lists.ts; the calls Mihon and Komelia make are
 * test/support/clients/komga-lists.ts). Thin handlers: Komga's paging and query lists in, Komga's DTOs out.
 */
import type { z } from 'zod';
import { COLLECTIONS_READ, PROGRESS_WRITE, READ_LISTS_READ } from '../auth/permissions';
import type { CollectionRow } from '../repositories/collections.repository';
import type { ReadListRow } from '../repositories/read-lists.repository';
import { progressActor, requestViewer } from '../http/progress-actor';
import { mediaRequestOf } from '../http/send-media';
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
  KOMGA_COLLECTIONS,
  KOMGA_READ_LISTS,
  type KomgaListKind,
  KomgaLists,
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
  registerList(app, KOMGA_COLLECTIONS);
  app.get('/api/v1/collections/:id/series', need(COLLECTIONS_READ), async (c) =>
    c.json(await listsOf(c).collectionSeries(requestViewer(c), c.req.param('id'), pagingOf(c))),
  );

  // ---- read lists ----
  app.post('/api/v1/readlists/match/comicrack', need('ReadListsWrite'), async (c) => {
    const bytes = await readUploadedFile(c, CBL_MAX_BYTES);
    return c.json(await listsOf(c).matchComicRack(requestViewer(c), bytes));
  });
  registerList(app, KOMGA_READ_LISTS);
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
}

/**
 * What a collection and a read list do alike in Komga: list, create, read, edit and delete; the lists holding a
 * member; and a cover made from the first visible member.
 */
function registerList<Row extends CollectionRow | ReadListRow, Dto, C extends z.ZodType, U extends z.ZodType>(
  app: KomgaApp,
  list: KomgaListKind<Row, Dto, C, U>,
) {
  const base = `/api/v1/${list.path}`;
  app.get(base, need(list.read), async (c) =>
    c.json(await listsOf(c).page(list, requestViewer(c), pagingOf(c), listQuery(c))),
  );
  app.post(base, need(list.write), async (c) =>
    c.json(await listsOf(c).create(list, requestViewer(c), await jsonBody(c, list.creation))),
  );
  app.get(`${base}/:id`, need(list.read), async (c) =>
    c.json(await listsOf(c).one(list, requestViewer(c), c.req.param('id'))),
  );
  app.patch(`${base}/:id`, need(list.write), async (c) => {
    await listsOf(c).update(list, requestViewer(c), c.req.param('id'), await jsonBody(c, list.update));
    return c.body(null, 204);
  });
  app.get(list.ofMember, need(list.read), async (c) =>
    c.json(await listsOf(c).ofMember(list, requestViewer(c), c.req.param('id'))),
  );
  app.delete(`${base}/:id`, need(list.del), async (c) => {
    await list.lists(c.get('services')).delete(requestViewer(c), c.req.param('id'));
    return c.body(null, 204);
  });
  app.get(`${base}/:id/thumbnail`, need(list.read), async (c) => {
    const viewer = requestViewer(c);
    const services = c.get('services');
    const first = await list.lists(services).cover(viewer, c.req.param('id'));
    return sendMedia(c, await services.thumbnails.forListMember(viewer, first, mediaRequestOf(c)));
  });
  // Longbox makes list covers from their members: there are no uploaded posters to list.
  app.get(`${base}/:id/thumbnails`, need(list.read), async (c) => {
    await list.lists(c.get('services')).row(requestViewer(c), c.req.param('id'));
    return c.json([]);
  });
}

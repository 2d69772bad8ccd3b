/** Collections, read lists and want-to-read: thin handlers over their services (src/services/lists.services.ts). */
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { readUploadedFile } from '../../http/uploaded-file';
import { requestViewer } from '../../http/progress-actor';
import { createRouter } from '../../http/router';
import { sendMedia } from '../../http/send-media';
import { CBL_MAX_BYTES } from '../../lists/cbl';
import { noContent, paged } from '../handlers';
import { contracts as routes } from './lists.routes';

type ListServices = AppEnv['Variables']['services']['collections' | 'readLists'];

const services = (c: Context<AppEnv>) => c.get('services');
const listOf = (id: string | undefined) => (id ? [id] : undefined);

/** A list's cover: the thumbnail of its first member the viewer may see. */
async function listCover(c: Context<AppEnv>, lists: Pick<ListServices, 'cover'>, id: string) {
  const viewer = requestViewer(c);
  const first = await lists.cover(viewer, id);
  return sendMedia(c, await services(c).thumbnails.forListMember(viewer, first, c.req.header('If-None-Match')));
}

// Fixed paths (/readlists/import/cbl, /want-to-read/bulk) are registered before the `{id}` routes.
export const listsRouter = createRouter()
  .openapi(
    ...paged(routes.listCollections, ({ services, viewer, query }, page) =>
      services.collections.list(
        viewer,
        { libraryIds: listOf(query.library_id), search: query.search, pinned: query.pinned === 'true' },
        page,
      ),
    ),
  )
  .openapi(routes.createCollection, async (c) =>
    c.json(await services(c).collections.create(requestViewer(c), c.req.valid('json')), 201),
  )
  .openapi(routes.getCollection, async (c) =>
    c.json(await services(c).collections.get(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.updateCollection, async (c) =>
    c.json(await services(c).collections.update(requestViewer(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(routes.deleteCollection, (c) =>
    noContent(c, services(c).collections.delete(requestViewer(c), c.req.valid('param').id)),
  )
  .openapi(
    ...paged(routes.listCollectionSeries, ({ services, viewer, param }, page) =>
      services.collections.series(viewer, param.id, page),
    ),
  )
  .openapi(
    ...paged(routes.listCollectionBooks, ({ services, viewer, param }, page) =>
      services.collections.books(viewer, param.id, page),
    ),
  )
  .openapi(routes.addCollectionSeries, async (c) =>
    c.json(
      await services(c).collections.addSeries(requestViewer(c), c.req.valid('param').id, c.req.valid('json').seriesIds),
      200,
    ),
  )
  .openapi(routes.replaceCollectionSeries, (c) =>
    noContent(
      c,
      services(c).collections.replaceSeries(requestViewer(c), c.req.valid('param').id, c.req.valid('json').seriesIds),
    ),
  )
  .openapi(routes.removeCollectionSeries, (c) => {
    const { id, seriesId } = c.req.valid('param');
    return noContent(c, services(c).collections.removeSeries(requestViewer(c), id, seriesId));
  })
  .openapi(routes.collectionThumbnail, (c) => listCover(c, services(c).collections, c.req.valid('param').id))
  .openapi(
    ...paged(routes.seriesCollections, ({ services, viewer, param }, page) =>
      services.collections.ofSeries(viewer, param.id, page),
    ),
  )
  .openapi(
    ...paged(routes.listReadLists, ({ services, viewer, query }, page) =>
      services.readLists.list(viewer, { libraryIds: listOf(query.library_id), search: query.search }, page),
    ),
  )
  .openapi(routes.createReadList, async (c) =>
    c.json(await services(c).readLists.create(requestViewer(c), c.req.valid('json')), 201),
  )
  .openapi(routes.importCbl, async (c) => {
    const bytes = await readUploadedFile(c, CBL_MAX_BYTES);
    const dryRun = c.req.valid('query').dryRun === 'true';
    return c.json(await services(c).cblImport.import(requestViewer(c), bytes, dryRun), 200);
  })
  .openapi(routes.getReadList, async (c) =>
    c.json(await services(c).readLists.get(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.updateReadList, async (c) =>
    c.json(await services(c).readLists.update(requestViewer(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(routes.deleteReadList, (c) =>
    noContent(c, services(c).readLists.delete(requestViewer(c), c.req.valid('param').id)),
  )
  .openapi(
    ...paged(routes.listReadListBooks, ({ services, viewer, param }, page) =>
      services.readLists.books(viewer, param.id, page),
    ),
  )
  .openapi(routes.addReadListBooks, async (c) =>
    c.json(
      await services(c).readLists.addBooks(requestViewer(c), c.req.valid('param').id, c.req.valid('json').bookIds),
      200,
    ),
  )
  .openapi(routes.replaceReadListBooks, (c) =>
    noContent(
      c,
      services(c).readLists.replaceBooks(requestViewer(c), c.req.valid('param').id, c.req.valid('json').bookIds),
    ),
  )
  .openapi(routes.removeReadListBook, (c) => {
    const { id, bookId } = c.req.valid('param');
    return noContent(c, services(c).readLists.removeBook(requestViewer(c), id, bookId));
  })
  .openapi(routes.nextReadListBook, async (c) => {
    const { id, bookId } = c.req.valid('param');
    return c.json(await services(c).readLists.siblingBook(requestViewer(c), id, bookId, 1), 200);
  })
  .openapi(routes.previousReadListBook, async (c) => {
    const { id, bookId } = c.req.valid('param');
    return c.json(await services(c).readLists.siblingBook(requestViewer(c), id, bookId, -1), 200);
  })
  .openapi(routes.readListThumbnail, (c) => listCover(c, services(c).readLists, c.req.valid('param').id))
  .openapi(
    ...paged(routes.bookReadLists, ({ services, viewer, param }, page) =>
      services.readLists.ofBook(viewer, param.id, page),
    ),
  )
  .openapi(...paged(routes.listWantToRead, ({ services, viewer }, page) => services.wantToRead.list(viewer, page)))
  .openapi(routes.addWantToRead, async (c) => {
    const { seriesId, bookId } = c.req.valid('json');
    const item = seriesId ? { kind: 'series' as const, id: seriesId } : { kind: 'book' as const, id: bookId as string };
    const { added, entry } = await services(c).wantToRead.add(requestViewer(c), item);
    return added ? c.json(entry, 201) : c.json(entry, 200);
  })
  .openapi(routes.bulkWantToRead, async (c) => {
    const { seriesIds = [], bookIds = [] } = c.req.valid('json');
    return c.json(await services(c).wantToRead.addMany(requestViewer(c), seriesIds, bookIds), 200);
  })
  .openapi(routes.orderWantToRead, (c) =>
    noContent(c, services(c).wantToRead.reorder(requestViewer(c), c.req.valid('json').ids)),
  )
  .openapi(routes.removeSeriesWantToRead, (c) =>
    noContent(c, services(c).wantToRead.remove(requestViewer(c), { kind: 'series', id: c.req.valid('param').id })),
  )
  .openapi(routes.removeBookWantToRead, (c) =>
    noContent(c, services(c).wantToRead.remove(requestViewer(c), { kind: 'book', id: c.req.valid('param').id })),
  );

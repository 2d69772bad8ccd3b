/** Collections, read lists and want-to-read: thin handlers over their services (src/services/lists.services.ts). */
import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { readUploadedFile } from '../../http/uploaded-file';
import { requestViewer } from '../../http/progress-actor';
import { createRouter } from '../../http/router';
import { sendMedia } from '../../http/send-media';
import { CBL_MAX_BYTES } from '../../lists/cbl';
import type { MemberListService } from '../../services/member-list.service';
import type { Services } from '../../composition-root';
import { noContent, paged } from '../handlers';
import { contracts as routes } from './lists.routes';

type ListServices = Services['collections' | 'readLists'];

const services = (c: Context<AppEnv>) => c.get('services');
const listOf = (id: string | undefined) => (id ? [id] : undefined);

/** A list's cover: the thumbnail of its first member the viewer may see. */
async function listCover(c: Context<AppEnv>, lists: Pick<ListServices, 'cover'>, id: string) {
  const viewer = requestViewer(c);
  const first = await lists.cover(viewer, id);
  return sendMedia(c, await services(c).thumbnails.forListMember(viewer, first, c.req.header('If-None-Match')));
}

/**
 * The member edits collections and read lists share (src/services/member-list.service.ts): the route, and a
 * handler calling the list's service with the path's list id and the body's ids (`seriesIds` or `bookIds`).
 */
type MemberRequest = Context<AppEnv, string, any>;
type MemberLists<Dto> = (services: Services) => MemberListService<any, Dto, any, any>;
const memberIds = (c: MemberRequest, field: 'seriesIds' | 'bookIds') =>
  (c.req.valid('json' as never) as Record<typeof field, string[]>)[field];
const pathParam = (c: MemberRequest, name: 'id' | 'seriesId' | 'bookId') =>
  (c.req.valid('param' as never) as Record<typeof name, string>)[name];

/** POST …/{id}/series|books: adds after the last member; answers the list. */
function addMembers<R extends RouteConfig, Dto>(route: R, lists: MemberLists<Dto>, field: 'seriesIds' | 'bookIds') {
  const handler = async (c: MemberRequest) =>
    c.json(await lists(services(c)).addMembers(requestViewer(c), pathParam(c, 'id'), memberIds(c, field)), 200);
  return [route, handler] as const;
}

/** PUT …/{id}/series|books: the members the caller sees become these, in order; 204. */
function replaceMembers<R extends RouteConfig>(route: R, lists: MemberLists<unknown>, field: 'seriesIds' | 'bookIds') {
  const handler = (c: MemberRequest) =>
    noContent(c, lists(services(c)).replaceMembers(requestViewer(c), pathParam(c, 'id'), memberIds(c, field)));
  return [route, handler] as const;
}

/** DELETE …/{id}/series|books/{memberId}: 204. */
function removeMember<R extends RouteConfig>(route: R, lists: MemberLists<unknown>, param: 'seriesId' | 'bookId') {
  const handler = (c: MemberRequest) =>
    noContent(c, lists(services(c)).removeMember(requestViewer(c), pathParam(c, 'id'), pathParam(c, param)));
  return [route, handler] as const;
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
  .openapi(...addMembers(routes.addCollectionSeries, (s) => s.collections, 'seriesIds'))
  .openapi(...replaceMembers(routes.replaceCollectionSeries, (s) => s.collections, 'seriesIds'))
  .openapi(...removeMember(routes.removeCollectionSeries, (s) => s.collections, 'seriesId'))
  .openapi(routes.collectionThumbnail, (c) => listCover(c, services(c).collections, c.req.valid('param').id))
  .openapi(
    ...paged(routes.seriesCollections, ({ services, viewer, param }, page) =>
      services.collections.ofMember(viewer, param.id, page),
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
  .openapi(...addMembers(routes.addReadListBooks, (s) => s.readLists, 'bookIds'))
  .openapi(...replaceMembers(routes.replaceReadListBooks, (s) => s.readLists, 'bookIds'))
  .openapi(...removeMember(routes.removeReadListBook, (s) => s.readLists, 'bookId'))
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
      services.readLists.ofMember(viewer, param.id, page),
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

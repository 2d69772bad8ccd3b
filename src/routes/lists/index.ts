/** Collections, read lists and want-to-read: thin handlers over their services (src/services/lists.services.ts). */
import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { readUploadedFile } from '../../http/uploaded-file';
import { requestViewer } from '../../http/progress-actor';
import { createRouter } from '../../http/router';
import { mediaRequestOf, sendMedia } from '../../http/send-media';
import { coverCaching } from '../../pages/media-response';
import { CBL_MAX_BYTES } from '../../lists/cbl';
import type { ListEdit, ListTypes, MemberListService } from '../../services/member-list.service';
import type { Services } from '../../composition-root';
import type { Viewer } from '../../repositories/visibility';
import { noContent, paged } from '../handlers';
import { contracts as routes } from './lists.routes';

type ListServices = Services['collections' | 'readLists'];

const services = (c: Context<AppEnv>) => c.get('services');
const listOf = (id: string | undefined) => (id ? [id] : undefined);

/** A list's cover: the thumbnail of its first member the viewer may see, revalidated as that member changes. */
async function listCover(c: Context<AppEnv>, lists: Pick<ListServices, 'cover'>, viewer: Viewer, id: string) {
  const first = await lists.cover(viewer, id);
  const result = await services(c).thumbnails.forListMember(viewer, first, mediaRequestOf(c));
  return sendMedia(c, coverCaching(result, 'derived'));
}

/**
 * The handlers collections and read lists share (src/services/member-list.service.ts), each with its route:
 * create, read, edit and delete a list, and add, replace and remove its members (`seriesIds`/`seriesId` or
 * `bookIds`/`bookId` in bodies and paths).
 */
type ListRequest = Context<AppEnv, string, any>;
type Lists<Dto> = (
  services: Services,
) => Pick<
  MemberListService<ListTypes & { dto: Dto; create: never }>,
  'create' | 'get' | 'update' | 'delete' | 'addMembers' | 'replaceMembers' | 'removeMember' | 'ofMember' | 'cover'
>;

function listHandlers<Dto>(lists: Lists<Dto>, member: 'series' | 'book') {
  // The route's contract has validated both (lists.routes.ts); their types are the contract's.
  const json = <B>(c: ListRequest) => c.req.valid('json' as never) as B;
  const param = (c: ListRequest, name: string) =>
    (c.req.valid('param' as never) as Record<string, string>)[name] as string;
  const call = (c: ListRequest) => ({ lists: lists(services(c)), viewer: requestViewer(c), id: param(c, 'id') });
  const memberIds = (c: ListRequest) => json<Record<string, string[]>>(c)[`${member}Ids`] as string[];
  const route =
    <H>(handler: H) =>
    <R extends RouteConfig>(route: R) =>
      [route, handler] as const;
  return {
    create: route(async (c: ListRequest) =>
      c.json(await lists(services(c)).create(requestViewer(c), json<never>(c)), 201),
    ),
    get: route(async (c: ListRequest) => {
      const { lists, viewer, id } = call(c);
      return c.json(await lists.get(viewer, id), 200);
    }),
    update: route(async (c: ListRequest) => {
      const { lists, viewer, id } = call(c);
      return c.json(await lists.update(viewer, id, json<ListEdit>(c)), 200);
    }),
    delete: route((c: ListRequest) => {
      const { lists, viewer, id } = call(c);
      return noContent(c, lists.delete(viewer, id));
    }),
    /** POST …/{id}/series|books: adds after the last member; answers the list. */
    addMembers: route(async (c: ListRequest) => {
      const { lists, viewer, id } = call(c);
      return c.json(await lists.addMembers(viewer, id, memberIds(c)), 200);
    }),
    /** PUT …/{id}/series|books: the members the caller sees become these, in order; 204. */
    replaceMembers: route((c: ListRequest) => {
      const { lists, viewer, id } = call(c);
      return noContent(c, lists.replaceMembers(viewer, id, memberIds(c)));
    }),
    /** GET /series|books/{id}/collections|readlists: a page of the lists holding the member. */
    ofMember: <R extends RouteConfig>(route: R) =>
      paged(route, ({ services, viewer, param }, page) =>
        lists(services).ofMember(viewer, (param as unknown as { id: string }).id, page),
      ),
    /** GET …/{id}/thumbnail: the cover of the list's first member the viewer may see. */
    cover: route((c: ListRequest) => {
      const { lists, viewer, id } = call(c);
      return listCover(c, lists, viewer, id);
    }),
    /** DELETE …/{id}/series|books/{seriesId|bookId}: 204. */
    removeMember: route((c: ListRequest) => {
      const { lists, viewer, id } = call(c);
      return noContent(c, lists.removeMember(viewer, id, param(c, `${member}Id`)));
    }),
  };
}

const collection = listHandlers((s) => s.collections, 'series');
const readList = listHandlers((s) => s.readLists, 'book');

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
  .openapi(...collection.create(routes.createCollection))
  .openapi(...collection.get(routes.getCollection))
  .openapi(...collection.update(routes.updateCollection))
  .openapi(...collection.delete(routes.deleteCollection))
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
  .openapi(...collection.addMembers(routes.addCollectionSeries))
  .openapi(...collection.replaceMembers(routes.replaceCollectionSeries))
  .openapi(...collection.removeMember(routes.removeCollectionSeries))
  .openapi(...collection.cover(routes.collectionThumbnail))
  .openapi(...collection.ofMember(routes.seriesCollections))
  .openapi(
    ...paged(routes.listReadLists, ({ services, viewer, query }, page) =>
      services.readLists.list(viewer, { libraryIds: listOf(query.library_id), search: query.search }, page),
    ),
  )
  .openapi(...readList.create(routes.createReadList))
  .openapi(routes.importCbl, async (c) => {
    const bytes = await readUploadedFile(c, CBL_MAX_BYTES);
    const dryRun = c.req.valid('query').dryRun === 'true';
    return c.json(await services(c).cblImport.import(requestViewer(c), bytes, dryRun), 200);
  })
  .openapi(...readList.get(routes.getReadList))
  .openapi(...readList.update(routes.updateReadList))
  .openapi(...readList.delete(routes.deleteReadList))
  .openapi(
    ...paged(routes.listReadListBooks, ({ services, viewer, param }, page) =>
      services.readLists.books(viewer, param.id, page),
    ),
  )
  .openapi(...readList.addMembers(routes.addReadListBooks))
  .openapi(...readList.replaceMembers(routes.replaceReadListBooks))
  .openapi(...readList.removeMember(routes.removeReadListBook))
  .openapi(routes.nextReadListBook, async (c) => {
    const { id, bookId } = c.req.valid('param');
    return c.json(await services(c).readLists.siblingBook(requestViewer(c), id, bookId, 1), 200);
  })
  .openapi(routes.previousReadListBook, async (c) => {
    const { id, bookId } = c.req.valid('param');
    return c.json(await services(c).readLists.siblingBook(requestViewer(c), id, bookId, -1), 200);
  })
  .openapi(...readList.cover(routes.readListThumbnail))
  .openapi(...readList.ofMember(routes.bookReadLists))
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

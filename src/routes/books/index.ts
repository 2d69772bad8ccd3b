import { createRouter } from '../../http/router';
import { pageEnvelope, toPageRequest } from '../../lib/pagination';
import * as routes from './books.routes';

// Fixed paths are registered before /books/{id} so that they never reach its UUID check.
export const booksRouter = createRouter()
  .openapi(routes.listBooks, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const params = { libraryId: query.library_id, seriesId: query.series_id, sort: query.sort, order: query.order };
    const result = await c.get('services').bookQuery.list(c.get('principal').user.id, params, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.filterBooks, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const params = { sort: query.sort, order: query.order };
    const filter = c.req.valid('json');
    const result = await c.get('services').bookQuery.list(c.get('principal').user.id, params, page, filter);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.booksInProgress, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const result = await c.get('services').bookQuery.inProgress(c.get('principal').user.id, query.library_id, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.booksOnDeck, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const result = await c.get('services').bookQuery.onDeck(c.get('principal').user.id, query.library_id, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.booksRecentlyAdded, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const result = await c.get('services').bookQuery.recentlyAdded(c.get('principal').user.id, query.library_id, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.booksRecentlyRead, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const result = await c.get('services').bookQuery.recentlyRead(c.get('principal').user.id, query.library_id, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.getBook, async (c) =>
    c.json(await c.get('services').bookQuery.get(c.req.valid('param').id, c.get('principal').user.id), 200),
  );

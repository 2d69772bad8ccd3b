import { createRouter } from '../../http/router';
import { pageEnvelope, toPageRequest } from '../../lib/pagination';
import { progressActor } from '../../http/progress-actor';
import * as routes from './series.routes';

// Fixed paths are registered before /series/{id} so that they never reach its UUID check.
export const seriesRouter = createRouter()
  .openapi(routes.listSeries, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const params = { libraryId: query.library_id, sort: query.sort, order: query.order };
    const result = await c.get('services').seriesQuery.list(c.get('principal').user.id, params, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.filterSeries, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const params = { sort: query.sort, order: query.order };
    const filter = c.req.valid('json');
    const result = await c.get('services').seriesQuery.list(c.get('principal').user.id, params, page, filter);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.searchSeries, async (c) => {
    const page = toPageRequest(c.req.valid('query'));
    const result = await c.get('services').seriesQuery.search(c.get('principal').user.id, c.req.valid('json'), page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.seriesInProgress, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const result = await c.get('services').seriesQuery.inProgress(c.get('principal').user.id, query.library_id, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.seriesRecentlyAdded, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const result = await c
      .get('services')
      .seriesQuery.recentlyAdded(c.get('principal').user.id, query.library_id, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.seriesRecentlyUpdated, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const userId = c.get('principal').user.id;
    const result = await c.get('services').seriesQuery.recentlyUpdated(userId, query.library_id, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.getSeries, async (c) =>
    c.json(await c.get('services').seriesQuery.get(c.req.valid('param').id, c.get('principal').user.id), 200),
  )
  .openapi(routes.listSeriesBooks, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const params = { sort: query.sort, order: query.order };
    const userId = c.get('principal').user.id;
    const result = await c.get('services').bookQuery.listOfSeries(userId, c.req.valid('param').id, params, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.markSeriesRead, async (c) => {
    await c.get('services').readProgress.markSeriesRead(progressActor(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(routes.markSeriesUnread, async (c) => {
    await c.get('services').readProgress.markSeriesUnread(c.get('principal').user.id, c.req.valid('param').id);
    return c.body(null, 204);
  });

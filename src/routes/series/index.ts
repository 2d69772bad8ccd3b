import { createRouter } from '../../http/router';
import { noContent, paged, scopedList } from '../handlers';
import { progressActor, requestViewer } from '../../http/progress-actor';
import { whenChecked } from '../../middleware/caller';
import { contracts as routes } from './series.routes';

// Fixed paths are registered before /series/{id} so that they never reach its UUID check.
export const seriesRouter = createRouter()
  .openapi(
    ...paged(routes.listSeries, ({ services, viewer, query, scope }, page) =>
      services.seriesQuery.list(viewer, { ...scope, ...query }, page),
    ),
  )
  .openapi(
    ...paged(routes.filterSeries, ({ services, viewer, query, body }, page) =>
      services.seriesQuery.list(viewer, query, page, body),
    ),
  )
  .openapi(
    ...paged(routes.searchSeries, ({ services, viewer, body }, page) =>
      services.seriesQuery.search(viewer, body, page),
    ),
  )
  .openapi(...scopedList(routes.seriesInProgress, 'seriesQuery', 'inProgress'))
  .openapi(...scopedList(routes.seriesRecentlyAdded, 'seriesQuery', 'recentlyAdded'))
  .openapi(...scopedList(routes.seriesRecentlyUpdated, 'seriesQuery', 'recentlyUpdated'))
  .openapi(routes.getSeries, async (c) =>
    c.json(await c.get('services').seriesQuery.get(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(
    ...paged(routes.listSeriesBooks, ({ services, viewer, query, param }, page) =>
      services.bookQuery.listOfSeries(viewer, param.id, query, page),
    ),
  )
  .openapi(routes.markSeriesRead, async (c) =>
    noContent(c, c.get('services').readProgress.markSeriesRead(progressActor(c), c.req.valid('param').id)),
  )
  .openapi(routes.markSeriesUnread, async (c) =>
    noContent(c, c.get('services').readProgress.markSeriesUnread(requestViewer(c), c.req.valid('param').id)),
  )
  .openapi(routes.deleteSeriesFiles, async (c) =>
    noContent(
      c,
      c.get('services').fileDeletion.deleteSeries(requestViewer(c), c.req.valid('param').id, () => whenChecked(c)),
    ),
  );

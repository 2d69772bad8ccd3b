import { createRouter } from '../../http/router';
import { requestViewer } from '../../http/progress-actor';
import { act, answer, paged } from '../handlers';
import { contracts as routes } from './releases.routes';

// Fixed paths (/releases/bulk, /release-sources/poll-now-all) before the ones taking an id.
// biome-ignore format: a table of endpoints, one service call per line
export const releasesRouter = createRouter()
  .openapi(...answer(routes.getTracking, ({ services, viewer, param }) => services.tracking.get(viewer, param.id)))
  .openapi(...answer(routes.updateTracking, ({ services, viewer, param, body, checked }) => services.tracking.update(viewer, param.id, body, checked)))
  .openapi(...answer(routes.pollSeries, ({ services, viewer, param }) => services.tracking.pollNow(viewer, param.id), 202))
  .openapi(...answer(routes.listAliases, ({ services, viewer, param }) => services.tracking.aliases(viewer, param.id)))
  .openapi(routes.addAlias, async (c) => {
    const { created, alias } = await c.get('services').tracking.addAlias(requestViewer(c), c.req.valid('param').id, c.req.valid('json'));
    return created ? c.json(alias, 201) : c.json(alias, 200);
  })
  .openapi(...act(routes.deleteAlias, ({ services, viewer, param }) => services.tracking.deleteAlias(viewer, param.id, param.aliasId)))
  .openapi(...answer(routes.listExternalIds, ({ services, viewer, param }) => services.tracking.externalIds(viewer, param.id)))
  .openapi(...answer(routes.setExternalId, ({ services, viewer, param, body }) => services.tracking.setExternalId(viewer, param.id, body)))
  .openapi(...act(routes.deleteExternalId, ({ services, viewer, param }) => services.tracking.deleteExternalId(viewer, param.id, param.externalIdId)))
  .openapi(...paged(routes.listSeriesReleases, ({ services, viewer, param, query }, page) => services.releases.ofSeries(viewer, param.id, query, page)))
  .openapi(...paged(routes.listReleases, ({ services, viewer, query }, page) => services.releases.inbox(viewer, query, page)))
  .openapi(...answer(routes.bulkReleases, ({ services, viewer, body }) => services.releases.bulk(viewer, body.ids, body.action)))
  .openapi(...answer(routes.updateRelease, ({ services, viewer, param, body }) => services.releases.setState(viewer, param.id, body.state)))
  .openapi(...answer(routes.deleteRelease, ({ services, viewer, param }) => services.releases.delete(viewer, param.id)))
  .openapi(...answer(routes.dismissRelease, ({ services, viewer, param }) => services.releases.setState(viewer, param.id, 'dismissed')))
  .openapi(...answer(routes.acquireRelease, ({ services, viewer, param }) => services.releases.setState(viewer, param.id, 'marked_acquired')))
  .openapi(...answer(routes.listSources, ({ services }) => services.releaseSources.list()))
  .openapi(...answer(routes.pollAllSources, ({ services }) => services.releaseSources.pollNowAll(), 202))
  .openapi(...answer(routes.updateSource, ({ services, param, body }) => services.releaseSources.update(param.id, body)))
  .openapi(...answer(routes.pollSource, ({ services, param }) => services.releaseSources.pollNow(param.id), 202))
  .openapi(...answer(routes.resetSource, ({ services, param }) => services.releaseSources.reset(param.id)));

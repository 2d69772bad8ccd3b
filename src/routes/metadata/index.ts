import { createRouter } from '../../http/router';
import { answer } from '../handlers';
import { contracts as routes } from './metadata.routes';

const { series, books } = routes;

// The bulk paths are registered before /series/{id}/… and /books/{id}/… so that "bulk" never reaches the UUID check.
// biome-ignore format: a table of endpoints, one service call per line
export const metadataRouter = createRouter()
  .openapi(...answer(series.bulkPatch, ({ services, viewer, body }) => services.metadata.bulkPatchSeries(viewer, body)))
  .openapi(...answer(series.bulkLocks, ({ services, viewer, body }) => services.metadata.bulkSeriesLocks(viewer, body)))
  .openapi(...answer(books.bulkPatch, ({ services, viewer, body }) => services.metadata.bulkPatchBooks(viewer, body)))
  .openapi(...answer(books.bulkLocks, ({ services, viewer, body }) => services.metadata.bulkBookLocks(viewer, body)))
  .openapi(...answer(series.get, ({ services, viewer, param }) => services.metadata.seriesMetadata(viewer, param.id)))
  .openapi(...answer(series.patch, ({ services, principal, param, body }) => services.metadata.patchSeries(principal, param.id, body)))
  .openapi(...answer(series.getLocks, async ({ services, viewer, param }) => (await services.metadata.seriesMetadata(viewer, param.id)).locks))
  .openapi(...answer(series.putLocks, async ({ services, principal, param, body }) => (await services.metadata.setSeriesLocks(principal, param.id, body)).locks))
  .openapi(...answer(books.get, ({ services, viewer, param }) => services.metadata.bookMetadata(viewer, param.id)))
  .openapi(...answer(books.patch, ({ services, viewer, param, body }) => services.metadata.patchBook(viewer, param.id, body)))
  .openapi(...answer(books.getLocks, async ({ services, viewer, param }) => (await services.metadata.bookMetadata(viewer, param.id)).locks))
  .openapi(...answer(books.putLocks, async ({ services, viewer, param, body }) => (await services.metadata.setBookLocks(viewer, param.id, body)).locks));

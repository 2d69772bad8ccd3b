import { createRouter } from '../../http/router';
import { requestViewer } from '../../http/progress-actor';
import { contracts as routes } from './metadata.routes';

// The bulk paths are registered before /series/{id}/… and /books/{id}/… so that "bulk" never reaches the UUID check.
export const metadataRouter = createRouter()
  .openapi(routes.bulkPatchSeries, async (c) =>
    c.json(await c.get('services').metadata.bulkPatchSeries(requestViewer(c), c.req.valid('json')), 200),
  )
  .openapi(routes.bulkSeriesLocks, async (c) =>
    c.json(await c.get('services').metadata.bulkSeriesLocks(requestViewer(c), c.req.valid('json')), 200),
  )
  .openapi(routes.bulkPatchBooks, async (c) =>
    c.json(await c.get('services').metadata.bulkPatchBooks(requestViewer(c), c.req.valid('json')), 200),
  )
  .openapi(routes.bulkBookLocks, async (c) =>
    c.json(await c.get('services').metadata.bulkBookLocks(requestViewer(c), c.req.valid('json')), 200),
  )
  .openapi(routes.getSeriesMetadata, async (c) =>
    c.json(await c.get('services').metadata.seriesMetadata(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.patchSeriesMetadata, async (c) =>
    c.json(
      await c.get('services').metadata.patchSeries(c.get('principal'), c.req.valid('param').id, c.req.valid('json')),
      200,
    ),
  )
  .openapi(routes.getSeriesLocks, async (c) =>
    c.json((await c.get('services').metadata.seriesMetadata(requestViewer(c), c.req.valid('param').id)).locks, 200),
  )
  .openapi(routes.putSeriesLocks, async (c) =>
    c.json(
      (
        await c
          .get('services')
          .metadata.setSeriesLocks(c.get('principal'), c.req.valid('param').id, c.req.valid('json'))
      ).locks,
      200,
    ),
  )
  .openapi(routes.getBookMetadata, async (c) =>
    c.json(await c.get('services').metadata.bookMetadata(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.patchBookMetadata, async (c) =>
    c.json(
      await c.get('services').metadata.patchBook(requestViewer(c), c.req.valid('param').id, c.req.valid('json')),
      200,
    ),
  )
  .openapi(routes.getBookLocks, async (c) =>
    c.json((await c.get('services').metadata.bookMetadata(requestViewer(c), c.req.valid('param').id)).locks, 200),
  )
  .openapi(routes.putBookLocks, async (c) =>
    c.json(
      (await c.get('services').metadata.setBookLocks(requestViewer(c), c.req.valid('param').id, c.req.valid('json')))
        .locks,
      200,
    ),
  );

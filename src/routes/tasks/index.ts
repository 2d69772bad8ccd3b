import { createRouter } from '../../http/router';
import { noContent, paged } from '../handlers';
import { contracts as routes } from './tasks.routes';

export const tasksRouter = createRouter()
  .openapi(
    ...paged(routes.listTasks, ({ services, query, scope }, page) =>
      services.tasks.list({ status: query.status, type: query.type, ...scope }, page.offset, page.pageSize),
    ),
  )
  .openapi(routes.taskStats, async (c) => c.json(await c.get('services').tasks.stats(), 200))
  .openapi(routes.getTask, async (c) => c.json(await c.get('services').tasks.get(c.req.valid('param').id), 200))
  .openapi(routes.cancelTask, async (c) => c.json(await c.get('services').tasks.cancel(c.req.valid('param').id), 200))
  .openapi(routes.analyzeBook, async (c) =>
    c.json(await c.get('services').tasks.analyzeBook(c.req.valid('param').id, c.get('principal').user.id), 202),
  )
  .openapi(routes.analyzeSeries, async (c) =>
    c.json(await c.get('services').tasks.analyzeSeries(c.req.valid('param').id, c.get('principal').user.id), 202),
  )
  .openapi(...paged(routes.listDuplicates, ({ services, viewer }, page) => services.duplicates.list(viewer, page)))
  .openapi(routes.emptyTrash, async (c) =>
    c.json(await c.get('services').tasks.emptyTrash(c.req.valid('param').id, c.get('principal').user.id), 202),
  )
  .openapi(routes.scanDuplicates, async (c) =>
    c.json(
      await c.get('services').tasks.enqueue({
        type: 'find_duplicates',
        uniqueKey: 'find_duplicates',
        createdBy: c.get('principal').user.id,
      }),
      202,
    ),
  )
  .openapi(routes.dismissDuplicate, async (c) =>
    noContent(c, c.get('services').tasks.dismissDuplicate(c.req.valid('param').id)),
  );

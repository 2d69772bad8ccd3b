import { createRouter } from '../../http/router';
import { pageEnvelope, toPageRequest } from '../../lib/pagination';
import * as routes from './tasks.routes';

export const tasksRouter = createRouter()
  .openapi(routes.listTasks, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const { data, total } = await c
      .get('services')
      .tasks.list({ status: query.status, type: query.type, libraryId: query.library_id }, page.offset, page.pageSize);
    return c.json(pageEnvelope(c.req.url, page, data, total), 200);
  })
  .openapi(routes.taskStats, async (c) => c.json(await c.get('services').tasks.stats(), 200))
  .openapi(routes.getTask, async (c) => c.json(await c.get('services').tasks.get(c.req.valid('param').id), 200))
  .openapi(routes.cancelTask, async (c) => c.json(await c.get('services').tasks.cancel(c.req.valid('param').id), 200))
  .openapi(routes.analyzeBook, async (c) =>
    c.json(await c.get('services').tasks.analyzeBook(c.req.valid('param').id, c.get('principal').user.id), 202),
  )
  .openapi(routes.analyzeSeries, async (c) =>
    c.json(await c.get('services').tasks.analyzeSeries(c.req.valid('param').id, c.get('principal').user.id), 202),
  )
  .openapi(routes.listDuplicates, async (c) => {
    const page = toPageRequest(c.req.valid('query'));
    const { data, total } = await c.get('services').tasks.listDuplicates(page.offset, page.pageSize);
    return c.json(pageEnvelope(c.req.url, page, data, total), 200);
  })
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
  .openapi(routes.dismissDuplicate, async (c) => {
    await c.get('services').tasks.dismissDuplicate(c.req.valid('param').id);
    return c.body(null, 204);
  });

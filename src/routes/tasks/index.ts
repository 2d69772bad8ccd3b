import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { requestViewer } from '../../http/progress-actor';
import { createRouter } from '../../http/router';
import { noContent, paged } from '../handlers';
import { contracts as routes } from './tasks.routes';

const tasksOf = (c: Context<AppEnv>) => c.get('services').tasks;

export const tasksRouter = createRouter()
  .openapi(
    ...paged(routes.listTasks, ({ services, viewer, query, scope }, page) =>
      services.tasks.list(viewer, { status: query.status, type: query.type, ...scope }, page.offset, page.pageSize),
    ),
  )
  .openapi(routes.taskStats, async (c) => c.json(await tasksOf(c).stats(requestViewer(c)), 200))
  .openapi(routes.getTask, async (c) => c.json(await tasksOf(c).get(requestViewer(c), c.req.valid('param').id), 200))
  .openapi(routes.cancelTask, async (c) =>
    c.json(await tasksOf(c).cancel(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.analyzeBook, async (c) =>
    c.json(await tasksOf(c).analyzeBook(requestViewer(c), c.req.valid('param').id), 202),
  )
  .openapi(routes.analyzeSeries, async (c) =>
    c.json(await tasksOf(c).analyzeSeries(requestViewer(c), c.req.valid('param').id), 202),
  )
  .openapi(...paged(routes.listDuplicates, ({ services, viewer }, page) => services.duplicates.list(viewer, page)))
  .openapi(routes.emptyTrash, async (c) =>
    c.json(await tasksOf(c).emptyTrash(requestViewer(c), c.req.valid('param').id), 202),
  )
  .openapi(routes.scanDuplicates, async (c) => c.json(await tasksOf(c).scanDuplicates(requestViewer(c)), 202))
  .openapi(routes.dismissDuplicate, async (c) =>
    noContent(c, tasksOf(c).dismissDuplicate(requestViewer(c), c.req.valid('param').id)),
  );

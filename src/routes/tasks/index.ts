import { createRouter } from '../../http/router';
import { act, answer, paged } from '../handlers';
import { contracts as routes } from './tasks.routes';

// biome-ignore format: a table of endpoints, one service call per line
export const tasksRouter = createRouter()
  .openapi(
    ...paged(routes.listTasks, ({ services, viewer, query, scope }, page) =>
      services.tasks.list(viewer, { status: query.status, type: query.type, ...scope }, page.offset, page.pageSize),
    ),
  )
  .openapi(...answer(routes.taskStats, ({ services, viewer }) => services.tasks.stats(viewer)))
  .openapi(...answer(routes.getTask, ({ services, viewer, param }) => services.tasks.get(viewer, param.id)))
  .openapi(...answer(routes.cancelTask, ({ services, viewer, param }) => services.tasks.cancel(viewer, param.id)))
  .openapi(...answer(routes.analyzeBook, ({ services, viewer, param }) => services.tasks.analyze(viewer, 'book', param.id), 202))
  .openapi(...answer(routes.analyzeSeries, ({ services, viewer, param }) => services.tasks.analyze(viewer, 'series', param.id), 202))
  .openapi(...paged(routes.listDuplicates, ({ services, viewer }, page) => services.duplicates.list(viewer, page)))
  .openapi(...answer(routes.emptyTrash, ({ services, viewer, param }) => services.tasks.emptyTrash(viewer, param.id), 202))
  .openapi(...answer(routes.scanDuplicates, ({ services, viewer }) => services.tasks.scanDuplicates(viewer), 202))
  .openapi(...act(routes.dismissDuplicate, ({ services, viewer, param }) => services.tasks.dismissDuplicate(viewer, param.id)));

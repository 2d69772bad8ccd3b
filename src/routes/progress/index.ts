import { createRouter } from '../../http/router';
import { noContent, paged, scopedList } from '../handlers';
import { progressActor, requestViewer } from '../../http/progress-actor';
import { contracts as routes } from './progress.routes';

export const progressRouter = createRouter()
  .openapi(...paged(routes.listProgress, ({ services, viewer }, page) => services.readProgress.list(viewer, page)))
  .openapi(...scopedList(routes.currentlyReading, 'bookQuery', 'inProgress'))
  .openapi(routes.getProgress, async (c) =>
    c.json(await c.get('services').readProgress.get(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.updateProgress, async (c) => {
    const progress = c.get('services').readProgress;
    return c.json(await progress.update(progressActor(c), c.req.valid('param').id, c.req.valid('json')), 200);
  })
  .openapi(routes.deleteProgress, async (c) =>
    noContent(c, c.get('services').readProgress.clear(requestViewer(c), c.req.valid('param').id)),
  )
  .openapi(routes.markBookRead, async (c) =>
    c.json(await c.get('services').readProgress.markRead(progressActor(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.markBookUnread, async (c) =>
    noContent(c, c.get('services').readProgress.clear(requestViewer(c), c.req.valid('param').id)),
  );

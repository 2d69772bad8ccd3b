import { createRouter } from '../../lib/router';
import { paged, scopedList } from '../paged';
import { progressActor, requestViewer } from './actor';
import * as routes from './progress.routes';

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
  .openapi(routes.deleteProgress, async (c) => {
    await c.get('services').readProgress.clear(requestViewer(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(routes.markBookRead, async (c) =>
    c.json(await c.get('services').readProgress.markRead(progressActor(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.markBookUnread, async (c) => {
    await c.get('services').readProgress.clear(requestViewer(c), c.req.valid('param').id);
    return c.body(null, 204);
  });

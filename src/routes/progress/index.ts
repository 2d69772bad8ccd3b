import { createRouter } from '../../http/router';
import { pageEnvelope, toPageRequest } from '../../lib/pagination';
import { progressActor } from '../../http/progress-actor';
import * as routes from './progress.routes';

export const progressRouter = createRouter()
  .openapi(routes.listProgress, async (c) => {
    const page = toPageRequest(c.req.valid('query'));
    const result = await c.get('services').readProgress.list(c.get('principal').user.id, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.currentlyReading, async (c) => {
    const query = c.req.valid('query');
    const page = toPageRequest(query);
    const result = await c.get('services').bookQuery.inProgress(c.get('principal').user.id, query.library_id, page);
    return c.json(pageEnvelope(c.req.url, page, result.data, result.total), 200);
  })
  .openapi(routes.getProgress, async (c) =>
    c.json(await c.get('services').readProgress.get(c.get('principal').user.id, c.req.valid('param').id), 200),
  )
  .openapi(routes.updateProgress, async (c) => {
    const progress = c.get('services').readProgress;
    return c.json(await progress.update(progressActor(c), c.req.valid('param').id, c.req.valid('json')), 200);
  })
  .openapi(routes.deleteProgress, async (c) => {
    await c.get('services').readProgress.clear(c.get('principal').user.id, c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(routes.markBookRead, async (c) =>
    c.json(await c.get('services').readProgress.markRead(progressActor(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.markBookUnread, async (c) => {
    await c.get('services').readProgress.clear(c.get('principal').user.id, c.req.valid('param').id);
    return c.body(null, 204);
  });

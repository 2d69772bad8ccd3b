import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { progressActor } from '../../http/progress-actor';
import { createRouter } from '../../http/router';
import { act, answer, paged, scopedList } from '../handlers';
import { contracts as routes } from './progress.routes';

const progressOf = (c: Context<AppEnv>) => c.get('services').readProgress;

// biome-ignore format: a table of endpoints, one service call per line
export const progressRouter = createRouter()
  .openapi(...paged(routes.listProgress, ({ services, viewer }, page) => services.readProgress.list(viewer, page)))
  .openapi(...scopedList(routes.currentlyReading, 'bookQuery', 'inProgress'))
  .openapi(...answer(routes.getProgress, ({ services, viewer, param }) => services.readProgress.get(viewer, param.id)))
  // Writes are attributed to a device: the actor carries the API key and User-Agent besides the viewer.
  .openapi(routes.updateProgress, async (c) => c.json(await progressOf(c).update(progressActor(c), c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(...act(routes.deleteProgress, ({ services, viewer, param }) => services.readProgress.clear(viewer, param.id)))
  .openapi(routes.markBookRead, async (c) => c.json(await progressOf(c).markRead(progressActor(c), c.req.valid('param').id), 200))
  .openapi(...act(routes.markBookUnread, ({ services, viewer, param }) => services.readProgress.clear(viewer, param.id)));

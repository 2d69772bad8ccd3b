import { paged } from '../handlers';
import { createRouter } from '../../http/router';
import { contracts as routes } from './settings.routes';

export const settingsRouter = createRouter()
  .openapi(routes.listSettings, async (c) => c.json(await c.get('services').settings.list(), 200))
  .openapi(routes.getSetting, async (c) => c.json(await c.get('services').settings.get(c.req.valid('param').key), 200))
  .openapi(routes.updateSetting, async (c) => {
    const { key } = c.req.valid('param');
    const { value, changeReason } = c.req.valid('json');
    const [view] = await c.get('services').settings.update([{ key, value }], c.get('principal').user.id, changeReason);
    return c.json(view, 200);
  })
  .openapi(routes.bulkUpdateSettings, async (c) => {
    const { updates, changeReason } = c.req.valid('json');
    return c.json(await c.get('services').settings.update(updates, c.get('principal').user.id, changeReason), 200);
  })
  .openapi(routes.resetSetting, async (c) =>
    c.json(await c.get('services').settings.reset(c.req.valid('param').key, c.get('principal').user.id), 200),
  )
  .openapi(
    ...paged(routes.getSettingHistory, async ({ services, param }, page) => {
      const { items, total } = await services.settings.history(param.key, page.offset, page.pageSize);
      return { data: items, total };
    }),
  );

import { pageEnvelope, toPageRequest } from '../../lib/pagination';
import { createRouter } from '../../http/router';
import { toUserDto } from '../../mappers/user.mapper';
import * as routes from './users.routes';

export const usersRouter = createRouter()
  .openapi(routes.listUsers, async (c) => {
    const page = toPageRequest(c.req.valid('query'));
    const { items, total } = await c.get('services').users.list(page);
    return c.json(pageEnvelope(c.req.url, page, items.map(toUserDto), total), 200);
  })
  .openapi(routes.createUser, async (c) => {
    const user = await c.get('services').users.create(c.get('principal'), c.req.valid('json'));
    return c.json(toUserDto(user), 201);
  })
  .openapi(routes.getUser, async (c) =>
    c.json(toUserDto(await c.get('services').users.get(c.req.valid('param').id)), 200),
  )
  .openapi(routes.updateUser, async (c) => {
    const { id } = c.req.valid('param');
    const user = await c.get('services').users.update(c.get('principal'), id, c.req.valid('json'));
    return c.json(toUserDto(user), 200);
  })
  .openapi(routes.deleteUser, async (c) => {
    await c.get('services').users.delete(c.get('principal'), c.req.valid('param').id);
    return c.body(null, 204);
  });

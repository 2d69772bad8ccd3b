import { createRouter } from '../../http/router';
import { noContent, paged } from '../handlers';
import { toUserDto } from '../../mappers/user.mapper';
import { contracts as routes } from './users.routes';

export const usersRouter = createRouter()
  .openapi(
    ...paged(routes.listUsers, async ({ services }, page) => {
      const { items, total } = await services.users.list(page);
      return { data: items.map(toUserDto), total };
    }),
  )
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
  .openapi(routes.deleteUser, async (c) =>
    noContent(c, c.get('services').users.delete(c.get('principal'), c.req.valid('param').id)),
  );
